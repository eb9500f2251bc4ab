package web

import (
	"encoding/json"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// importsViewOf gathers the report's imports with their rows; the rows'
// warnings as the report judges them (reports.Report.RowWarnings).
func importsViewOf(rep *reports.Report, canEdit bool) view.Imports {
	v := view.Imports{ReportID: rep.ID, Version: rep.Version, CanEdit: canEdit, Frozen: rep.Frozen()}
	judged := rep.RowWarnings()
	byImport := map[int64][]view.ImportRow{}
	for _, sr := range rep.Rows {
		ir := view.ImportRow{ID: sr.ID, Row: sr.Row, Warnings: sr.Row.Warnings}
		if w, ok := judged[reports.WarningsKey(sr.Row.Source.SHA256, sr.Row.Index)]; ok && sr.CandidateID == 0 {
			ir.Warnings = w
		}
		byImport[sr.ImportID] = append(byImport[sr.ImportID], ir)
	}
	for _, im := range rep.Imports {
		v.Imports = append(v.Imports, view.ImportItem{Import: im, Table: byImport[im.ID]})
	}
	return v
}

// importList is the report's imports on pages of their own, searchable:
// GET /reports/:id/imports?q=TEXT&page=N.
func (s *Server) importList(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	l, _ := c.Get(loadedKey).(loaded) // set by loadReport
	iv := importsViewOf(l.rep, v.CanEdit)
	page, _ := strconv.Atoi(c.QueryParam("page"))
	iv.ListPage(c.QueryParam("q"), page)
	sec := view.ImportsListSection(iv)
	return s.render(c, http.StatusOK, layout(s.page(c, v.R.Title+" · imports"), view.SectionPage(v, sec)), sec)
}

// provenance lists every figure of the row that has a recorded path, in
// name order, with the value the row holds under that name.
func provenance(reportID int64, sr store.StoredRow) view.ProvenanceView {
	p := view.ProvenanceView{ReportID: reportID, RowID: sr.ID, Row: sr.Row}
	var doc map[string]any
	if b, err := json.Marshal(sr.Row); err == nil {
		json.Unmarshal(b, &doc)
	}
	names := make([]string, 0, len(sr.Row.Paths))
	for n := range sr.Row.Paths {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p.Figures = append(p.Figures, view.ProvenanceFigure{Name: n, Value: lookupValue(doc, n), Path: sr.Row.Paths[n]})
	}
	return p
}

// lookupValue finds a dotted name ("ttft_s.p95") in the row's JSON form and
// formats the value exactly as stored; "—" when absent.
func lookupValue(doc map[string]any, name string) string {
	var cur any = doc
	for _, k := range strings.Split(name, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return "—"
		}
		if cur, ok = m[k]; !ok {
			return "—"
		}
	}
	switch x := cur.(type) {
	case nil:
		return "—"
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(cur)
	return string(b)
}
