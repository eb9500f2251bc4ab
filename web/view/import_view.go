package view

import (
	"fmt"
	"net/url"
	"strings"

	"capplan/planner"
	"capplan/web/store"
)

// Imports is what the imports section shows.
type Imports struct {
	ReportID int64
	Version  int
	CanEdit  bool
	Frozen   bool
	Imports  []ImportItem
	// Outcome is the box after an upload, nil otherwise.
	Outcome *ImportOutcome
	// Total is how many imports the report has; past ImportsShown the
	// report's page shows the newest (newest first) and links to the
	// imports' own pages (importsList), searchable, importsPerPage each.
	Total int
	// On the imports' own pages: the search, the page and how many.
	List        bool
	Query       string
	Page, Pages int
	Matching    int
}

// ImportsShown is how many imports the report's page shows in full;
// importsPerPage how many a page of the imports list shows. A report of
// 1,500 imports keeps its page within a few hundred KB.
const (
	ImportsShown   = 30
	importsPerPage = 50
)

// ImportItem is one imported file with its rows.
type ImportItem struct {
	store.Import
	Table []ImportRow // the rows, in file order
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
func rowWarningSummary(rows []ImportRow) string {
	total := 0
	for _, r := range rows {
		total += len(r.Warnings)
	}
	if total == 0 {
		return "no row warnings"
	}
	return plural(total, "row warning", "row warnings")
}

// rowWarningLines are an import's row warnings in sentences, one per
// code in the order first seen, so they are read without unfolding the
// rows: the sentence with how many rows say it ("(5 rows)"), or, where
// the rows' values differ, the first row's with how many more are alike.
func rowWarningLines(rows []ImportRow) []warningLine {
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

// ProvenanceView is where each figure of one row was read.
type ProvenanceView struct {
	ReportID int64
	RowID    int64
	Row      planner.Row
	Figures  []ProvenanceFigure
	// Back is the report section the page links back to: "imports", or
	// "matrix" or "candidates" when opened from a matrix row.
	Back string
}

// ImportRow is one imported row and every warning about it.
type ImportRow struct {
	ID  int64
	Row planner.Row
	// Warnings are the row's own and, for rows of the main matrix, the
	// contract checks planner.Compute made (RowResult.Warnings).
	Warnings []planner.Warning
}

// ImportOutcome is the result of an upload: what was added, or why not.
type ImportOutcome struct {
	OK  string
	Err string
	Dup *store.Import // the first import of a refused duplicate
}

// warningLine is one kind of warning of an import's rows, in a sentence
// (planner.WarningSentence) with the rows it concerns.
type warningLine struct {
	Code string
	Text string
}

// ProvenanceFigure is one figure: its name, its value as stored and its
// path inside the source file.
type ProvenanceFigure struct {
	Name, Value, Path string
}

// Fold keeps the newest ImportsShown imports, newest first, when there
// are more.
func (v *Imports) Fold() {
	v.Total = len(v.Imports)
	if v.Total <= ImportsShown {
		return
	}
	newest := make([]ImportItem, 0, ImportsShown)
	for i := len(v.Imports) - 1; i >= 0 && len(newest) < ImportsShown; i-- {
		newest = append(newest, v.Imports[i])
	}
	v.Imports = newest
}

// ListPage keeps the imports matching query (in the file name, format,
// tool or model; any case), newest first, page (1-based) of them.
func (v *Imports) ListPage(query string, page int) {
	v.Total, v.List, v.Query = len(v.Imports), true, strings.TrimSpace(query)
	q := strings.ToLower(v.Query)
	var match []ImportItem
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
