package web

import (
	"fmt"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/view"
)

// The matrix shows by default the load, the verdict, the figures the
// objective names, the success rate and the throughput; the rest are
// marked "more"; a candidate's compact matrix marks none.
func TestMatrixObjectiveColumns(t *testing.T) {
	two := 2.0
	var v view.Report
	v.Result.Objective = planner.Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: &two}
	for col, want := range map[string]string{
		"load": "", "verdict": "", "success": "", "rate": "", "ttft": "",
		"e2e": "more", "headroom": "more", "oom": "more", "incomplete": "more", "errors": "more",
		"memory": "more", "power": "more", "sources": "more",
	} {
		if got := view.MatrixCol(v, false, col); got != want {
			t.Errorf("objective ttft only: column %s has class %q, want %q", col, got, want)
		}
		if got := view.MatrixCol(v, true, col); got != "" {
			t.Errorf("compact matrix: column %s has class %q, want none", col, got)
		}
	}
	if got := view.ObjectiveColumnCount(v); got != 5 {
		t.Errorf("objective ttft only: %d columns by default, want 5 (load, verdict, success, ttft, rate)", got)
	}
	// With headroom and no_oom, those stand too; with no objective yet,
	// TTFT and end-to-end do.
	v.Result.Objective.MinHeadroom, v.Result.Objective.NoOOM = &two, true
	if view.MatrixCol(v, false, "headroom") != "" || view.MatrixCol(v, false, "oom") != "" {
		t.Error("the objective's headroom and OOM columns are not shown by default")
	}
	v.Result.Objective = planner.Objective{}
	if view.MatrixCol(v, false, "ttft") != "" || view.MatrixCol(v, false, "e2e") != "" || view.MatrixCol(v, false, "headroom") != "more" {
		t.Error("with no objective the matrix does not show TTFT and end-to-end alone")
	}
}

func TestMatrixURL(t *testing.T) {
	var v view.Report
	v.R.ID = 7
	for _, c := range []struct {
		print, rows, cols bool
		want              string
	}{
		{false, false, false, "/reports/7/results#matrix"},
		{false, false, true, "/reports/7/results?cols=all#matrix"},
		{false, true, true, "/reports/7/results?cols=all&rows=all#matrix"},
		{true, true, false, "/reports/7/print?rows=all#matrix"},
	} {
		v.Print = c.print
		if got := view.MatrixURL(v, c.rows, c.cols); got != c.want {
			t.Errorf("view.MatrixURL(print %t, rows %t, cols %t) = %s, want %s", c.print, c.rows, c.cols, got, c.want)
		}
	}
	// "Show all rows" keeps the columns asked for.
	v.Print, v.AllCols = false, true
	if got := view.MatrixAllRowsURL(v); got != "/reports/7/results?cols=all&rows=all#matrix" {
		t.Errorf("show all rows with every column: %s", got)
	}
	// A save made from a page showing every column refreshes the matrix
	// with every column.
	v.AllCols = false
	v.PageOf("http://localhost/reports/7/results?cols=all")
	if !v.AllCols || v.Step != "results" {
		t.Errorf("pageOf(results?cols=all): step %q, all columns %t", v.Step, v.AllCols)
	}
}

// Without JS the choice is a link: the page without ?cols=all marks the
// other columns "more" and links to every column; with it, the wrap shows
// every column and links back. Every column is in the page either way, as
// many as view.MatrixColumns names.
func TestMatrixColumnsByLink(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	v := demoView(t, app, id)
	base := fmt.Sprintf("%s/reports/%d/results", app.srv.URL, id)

	_, page := do(t, lead, "GET", base, nil)
	m := sectionOf(page, "matrix")
	head := cutBetween(m, `data-testid="matrix-table"`, "</thead>")
	if n, want := strings.Count(head, "<th ")+strings.Count(head, "<th>"), len(view.MatrixColumns(v)); n != want {
		t.Errorf("the matrix has %d columns, view.MatrixColumns names %d", n, want)
	}
	more := strings.Count(head, `more"`) + strings.Count(head, `more `)
	if want := len(view.MatrixColumns(v)) - view.ObjectiveColumnCount(v); more != want {
		t.Errorf("%d columns are shown on demand, want %d", more, want)
	}
	if !strings.Contains(m, `class="matrix-wrap"`) {
		t.Error("the matrix shows every column without being asked")
	}
	link := fmt.Sprintf(`href="/reports/%d/results?cols=all#matrix" data-matrix-cols="all" data-testid="matrix-show-all-columns">Show all %d columns</a>`, id, len(view.MatrixColumns(v)))
	if !strings.Contains(m, link) {
		t.Errorf("no link to every column: want %s", link)
	}

	_, page = do(t, lead, "GET", base+"?cols=all", nil)
	m = sectionOf(page, "matrix")
	if !strings.Contains(m, `class="matrix-wrap all-cols"`) {
		t.Error("?cols=all does not show every column")
	}
	if back := fmt.Sprintf(`href="/reports/%d/results#matrix" data-matrix-cols="objective"`, id); !strings.Contains(m, back) {
		t.Errorf("no link back to the objective's columns: want %s", back)
	}
}
