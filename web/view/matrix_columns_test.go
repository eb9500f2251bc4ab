package view

import (
	"fmt"
	"strings"
	"testing"

	"capplan/planner"
)

// The matrix shows by default the load, the verdict, the figures the
// objective names, the success rate and the throughput; the rest are
// marked "more"; a candidate's compact matrix marks none.
func TestMatrixObjectiveColumns(t *testing.T) {
	two := 2.0
	var v Report
	v.Result.Objective = planner.Objective{Percentile: 95, MinSuccess: 0.99, TTFTMax: &two}
	for col, want := range map[string]string{
		"load": "", "verdict": "", "success": "", "rate": "", "ttft": "",
		"e2e": "more", "headroom": "more", "oom": "more", "incomplete": "more", "errors": "more",
		"memory": "more", "power": "more", "sources": "more",
	} {
		if got := matrixCol(v, false, col); got != want {
			t.Errorf("objective ttft only: column %s has class %q, want %q", col, got, want)
		}
		if got := matrixCol(v, true, col); got != "" {
			t.Errorf("compact matrix: column %s has class %q, want none", col, got)
		}
	}
	if got := ObjectiveColumnCount(v); got != 5 {
		t.Errorf("objective ttft only: %d columns by default, want 5 (load, verdict, success, ttft, rate)", got)
	}
	// With headroom and no_oom, those stand too; with no objective yet,
	// TTFT and end-to-end do.
	v.Result.Objective.MinHeadroom, v.Result.Objective.NoOOM = &two, true
	if matrixCol(v, false, "headroom") != "" || matrixCol(v, false, "oom") != "" {
		t.Error("the objective's headroom and OOM columns are not shown by default")
	}
	v.Result.Objective = planner.Objective{}
	if matrixCol(v, false, "ttft") != "" || matrixCol(v, false, "e2e") != "" || matrixCol(v, false, "headroom") != "more" {
		t.Error("with no objective the matrix does not show TTFT and end-to-end alone")
	}
}

func TestMatrixURL(t *testing.T) {
	var v Report
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
		if got := matrixURL(v, c.rows, c.cols); got != c.want {
			t.Errorf("matrixURL(print %t, rows %t, cols %t) = %s, want %s", c.print, c.rows, c.cols, got, c.want)
		}
	}
	// "Show all rows" keeps the columns asked for.
	v.Print, v.AllCols = false, true
	if got := matrixAllRowsURL(v); got != "/reports/7/results?cols=all&rows=all#matrix" {
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
// many as MatrixColumns names.
func TestMatrixColumnsByLink(t *testing.T) {
	v := demoReport(t)
	id := v.R.ID
	m := sectionIn(stepPageOf(t, v, "results"), "matrix")
	head := between(m, `data-testid="matrix-table"`, "</thead>")
	if n, want := strings.Count(head, "<th ")+strings.Count(head, "<th>"), len(MatrixColumns(v)); n != want || n == 0 {
		t.Errorf("the matrix has %d columns, MatrixColumns names %d", n, want)
	}
	more := strings.Count(head, `more"`) + strings.Count(head, `more `)
	if want := len(MatrixColumns(v)) - ObjectiveColumnCount(v); more != want || more == 0 {
		t.Errorf("%d columns are shown on demand, want %d", more, want)
	}
	if !strings.Contains(m, `class="matrix-wrap"`) {
		t.Error("the matrix shows every column without being asked")
	}
	link := fmt.Sprintf(`href="/reports/%d/results?cols=all#matrix" data-matrix-cols="all" data-testid="matrix-show-all-columns">Show all %d columns</a>`, id, len(MatrixColumns(v)))
	if !strings.Contains(m, link) {
		t.Errorf("no link to every column: want %s", link)
	}

	v.AllCols = true
	m = sectionIn(stepPageOf(t, v, "results"), "matrix")
	if !strings.Contains(m, `class="matrix-wrap all-cols"`) {
		t.Error("AllCols (?cols=all) does not show every column")
	}
	if back := fmt.Sprintf(`href="/reports/%d/results#matrix" data-matrix-cols="objective"`, id); !strings.Contains(m, back) {
		t.Errorf("no link back to the objective's columns: want %s", back)
	}
}
