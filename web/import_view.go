package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// importsView is what the imports section shows.
type importsView struct {
	ReportID int64
	Version  int
	CanEdit  bool
	Frozen   bool
	Imports  []importItem
	// Outcome is the box after an upload, nil otherwise.
	Outcome *importOutcome
	// Total is how many imports the report has; past importsShown the
	// report's page shows the newest (newest first) and links to the
	// imports' own pages (importsList), searchable, importsPerPage each.
	Total int
	// On the imports' own pages: the search, the page and how many.
	List        bool
	Query       string
	Page, Pages int
	Matching    int
}

// importsShown is how many imports the report's page shows in full;
// importsPerPage how many a page of the imports list shows. A report of
// 1,500 imports keeps its page within a few hundred KB.
const (
	importsShown   = 30
	importsPerPage = 50
)

// fold keeps the newest importsShown imports, newest first, when there
// are more.
func (v *importsView) fold() {
	v.Total = len(v.Imports)
	if v.Total <= importsShown {
		return
	}
	newest := make([]importItem, 0, importsShown)
	for i := len(v.Imports) - 1; i >= 0 && len(newest) < importsShown; i-- {
		newest = append(newest, v.Imports[i])
	}
	v.Imports = newest
}

// listPage keeps the imports matching query (in the file name, format,
// tool or model; any case), newest first, page (1-based) of them.
func (v *importsView) listPage(query string, page int) {
	v.Total, v.List, v.Query = len(v.Imports), true, strings.TrimSpace(query)
	q := strings.ToLower(v.Query)
	var match []importItem
	for i := len(v.Imports) - 1; i >= 0; i-- {
		im := v.Imports[i]
		if q == "" || strings.Contains(strings.ToLower(im.FileName+" "+im.Format+" "+im.FormatVersion+" "+im.ToolVersion+" "+im.Model), q) {
			match = append(match, im)
		}
	}
	v.Matching = len(match)
	v.Pages = max((len(match)+importsPerPage-1)/importsPerPage, 1)
	v.Page = min(max(page, 1), v.Pages)
	from := (v.Page - 1) * importsPerPage
	v.Imports = match[from:min(from+importsPerPage, len(match))]
}

// importItem is one imported file with its rows.
type importItem struct {
	store.Import
	Table []importRow // the rows, in file order
}

// importRow is one imported row and every warning about it.
type importRow struct {
	ID  int64
	Row planner.Row
	// Warnings are the row's own and, for rows of the main matrix, the
	// contract checks planner.Compute made (RowResult.Warnings).
	Warnings []planner.Warning
}

// importOutcome is the result of an upload: what was added, or why not.
type importOutcome struct {
	OK  string
	Err string
	Dup *store.Import // the first import of a refused duplicate
}

// importsViewOf gathers the report's imports with their rows; the rows'
// warnings as the report judges them (reports.Report.RowWarnings).
func importsViewOf(rep *reports.Report, canEdit bool) importsView {
	v := importsView{ReportID: rep.ID, Version: rep.Version, CanEdit: canEdit, Frozen: rep.Frozen()}
	judged := rep.RowWarnings()
	byImport := map[int64][]importRow{}
	for _, sr := range rep.Rows {
		ir := importRow{ID: sr.ID, Row: sr.Row, Warnings: sr.Row.Warnings}
		if w, ok := judged[reports.WarningsKey(sr.Row.Source.SHA256, sr.Row.Index)]; ok && sr.CandidateID == 0 {
			ir.Warnings = w
		}
		byImport[sr.ImportID] = append(byImport[sr.ImportID], ir)
	}
	for _, im := range rep.Imports {
		v.Imports = append(v.Imports, importItem{Import: im, Table: byImport[im.ID]})
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
	iv := importsViewOf(v.rep, v.CanEdit)
	page, _ := strconv.Atoi(c.QueryParam("page"))
	iv.listPage(c.QueryParam("q"), page)
	sec := importsListSection(iv)
	return s.render(c, http.StatusOK, layout(s.page(c, v.R.Title+" · imports"), sectionPage(v, sec)), sec)
}

// importsPageURL is the address of page n of the imports list for query.
func importsPageURL(id int64, query string, n int) string {
	u := fmt.Sprintf("/reports/%d/imports?page=%d", id, n)
	if query != "" {
		u += "&q=" + url.QueryEscape(query)
	}
	return u
}

// saysNothingImported tells whether an import's refusal already says so.
func saysNothingImported(msg string) bool { return strings.Contains(msg, "Nothing was imported") }

// rowWarningSummary counts an import's row warnings: "3 row warnings",
// "no row warnings"; rowWarningLines says them.
func rowWarningSummary(rows []importRow) string {
	total := 0
	for _, r := range rows {
		total += len(r.Warnings)
	}
	if total == 0 {
		return "no row warnings"
	}
	return plural(total, "row warning", "row warnings")
}

// warningLine is one kind of warning of an import's rows, in a sentence
// (planner.WarningSentence) with the rows it concerns.
type warningLine struct {
	Code string
	Text string
}

// rowWarningLines are an import's row warnings in sentences, one per
// code in the order first seen, so they are read without unfolding the
// rows: the sentence with how many rows say it ("(5 rows)"), or, where
// the rows' values differ, the first row's with how many more are alike.
func rowWarningLines(rows []importRow) []warningLine {
	type group struct {
		code, first string
		firstRow    int
		rows        int
		same        bool
	}
	var order []*group
	by := map[string]*group{}
	for _, r := range rows {
		for _, w := range r.Warnings {
			text := planner.WarningSentence(w)
			g := by[w.Code]
			if g == nil {
				g = &group{code: w.Code, first: text, firstRow: r.Row.Index, same: true}
				by[w.Code] = g
				order = append(order, g)
			}
			g.rows++
			g.same = g.same && text == g.first
		}
	}
	out := make([]warningLine, 0, len(order))
	for _, g := range order {
		text := g.first
		switch {
		case g.rows > 1 && g.same:
			text += fmt.Sprintf(" (%d rows)", g.rows)
		case g.rows > 1:
			text = fmt.Sprintf("Row %d: %s (%d more %s alike)", g.firstRow, text, g.rows-1, plural(g.rows-1, "row", "rows"))
		}
		out = append(out, warningLine{Code: g.code, Text: text})
	}
	return out
}

// loadText names a row's load as the tool set it: "concurrency 4",
// "rate 2.5 req/s", "synchronous", "throughput".
func loadText(r planner.Row) string {
	kind := string(r.LoadKind)
	if kind == "" {
		kind = "load"
	}
	switch {
	case r.LoadKind == planner.LoadSynchronous || r.LoadKind == planner.LoadThroughput:
		return kind
	case r.Load == nil:
		return kind + " (not stated)"
	case r.LoadKind == planner.LoadRate:
		return kind + " " + optNum(r.Load) + " req/s"
	}
	return kind + " " + optNum(r.Load)
}

// shortSHA is the first 12 hex digits of a sha256.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12] + "…"
	}
	return sha
}

// provenanceView is where each figure of one row was read.
type provenanceView struct {
	ReportID int64
	RowID    int64
	Row      planner.Row
	Figures  []provenanceFigure
	// Back is the report section the page links back to: "imports", or
	// "matrix" or "candidates" when opened from a matrix row.
	Back string
}

// provenanceFigure is one figure: its name, its value as stored and its
// path inside the source file.
type provenanceFigure struct {
	Name, Value, Path string
}

// provenance lists every figure of the row that has a recorded path, in
// name order, with the value the row holds under that name.
func provenance(reportID int64, sr store.StoredRow) provenanceView {
	p := provenanceView{ReportID: reportID, RowID: sr.ID, Row: sr.Row}
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
		p.Figures = append(p.Figures, provenanceFigure{Name: n, Value: lookupValue(doc, n), Path: sr.Row.Paths[n]})
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
