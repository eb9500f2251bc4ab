package web

import (
	"fmt"
	"strings"
	"testing"

	"capplan/web/view"
)

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
