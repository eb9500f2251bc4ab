package web

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"capplan/web/reports"
	"capplan/web/store"
)

// TestReportPageShowsNewestHistory: the report page lists the newest
// reports.HistoryShown changes and links to the history page, which lists
// them all.
func TestReportPageShowsNewestHistory(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx, lead, "Renamed often")
	if err != nil {
		t.Fatal(err)
	}
	const renames = reports.HistoryShown + 10
	for i := range renames {
		r, err := app.store.Report(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := app.store.RenameReport(ctx, store.Edit{ReportID: id, BaseVersion: r.Version, UserID: lead.ID, Action: fmt.Sprintf("rename number %d", i)}, fmt.Sprintf("Title %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	all, err := app.store.History(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	c := app.client("reviewer")
	_, page := do(t, c, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	hist := between(page, `data-testid="history"`, "</section>")
	if n := strings.Count(hist, "<tr ") - 1; n != reports.HistoryShown { // less the header row
		t.Errorf("the page lists %d changes, want the newest %d", n, reports.HistoryShown)
	}
	newest, oldest := fmt.Sprintf("rename number %d<", renames-1), "rename number 0<"
	if !strings.Contains(hist, newest) || strings.Contains(hist, oldest) {
		t.Errorf("page: newest shown %t, oldest shown %t; want the newest only", strings.Contains(hist, newest), strings.Contains(hist, oldest))
	}
	link := fmt.Sprintf(`href="/reports/%d/history"`, id)
	if !strings.Contains(hist, link) || !strings.Contains(hist, fmt.Sprintf("All %d changes", len(all))) {
		t.Errorf("the page does not link to all %d changes", len(all))
	}
	_, full := do(t, c, "GET", fmt.Sprintf("%s/reports/%d/history", app.srv.URL, id), nil)
	if n := strings.Count(between(full, `data-testid="history"`, "</section>"), "<tr ") - 1; n != len(all) || !strings.Contains(full, oldest) {
		t.Errorf("the history page lists %d changes, want all %d", n, len(all))
	}
	if !strings.Contains(full, fmt.Sprintf(`href="/reports/%d" data-testid="back-to-report"`, id)) {
		t.Error("the history page has no way back to the report")
	}
}
