package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"capplan/importers"
)

// soakTable is a soak table of n hours in the markdown form a soak report
// carries.
func soakTable(n int) []byte {
	var b strings.Builder
	b.WriteString("| Hour | Requests | 429 | Failed | In SLO | TTFT p99 | TPOT p99 | Tok/s | GPU W | °C max |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for h := 1; h <= n; h++ {
		fmt.Fprintf(&b, "| %d | %d | %d | %d | 99.9%d%% | %d ms | 36.%d ms | 1,40%d | 43%d | 5%d |\n", h, 12000+h, 1000+h%97, h%3, h%10, 250+h%40, h%10, h%10, h%10, h%10)
	}
	return []byte(b.String())
}

// historyPart is the history section of a report page.
func historyPart(page string) string {
	i := strings.Index(page, `data-testid="history"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</section>")
	if j < 0 {
		return page[i:]
	}
	return page[i : i+j]
}

// The history records what changed, not the table: after a soak of the
// most hours one import reads (and after its removal) each history entry
// is a few lines, the history part of the page stays small, and the page
// grows with the soak table it shows only, not with the history of it.
func TestHistoryBoundedAfterMaximalSoak(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	ctx := context.Background()
	page := func() string {
		t.Helper()
		res, body := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("report page: %d", res.StatusCode)
		}
		return body
	}
	upload := func(n int) {
		t.Helper()
		cur, err := app.store.Report(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		res, body := postEvidence(t, lead, fmt.Sprintf("%s/reports/%d/evidence/soak", app.srv.URL, r.ID), map[string]string{"version": fmt.Sprint(cur.Version)}, "soak.md", soakTable(n))
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("soak of %d hours: %d\n%s", n, res.StatusCode, testid(body, "evidence-error-soak"))
		}
	}
	before := page()

	upload(24)
	p24 := page()
	upload(importers.MaxSoakHours)
	pMax := page()
	if !strings.Contains(pMax, fmt.Sprintf("<td>%d</td>", importers.MaxSoakHours)) {
		t.Fatalf("the page does not show the soak's last hour")
	}
	cur, _ := app.store.Report(ctx, r.ID)
	res, _ := do(t, lead, http.MethodPost, fmt.Sprintf("%s/reports/%d/evidence/soak/remove", app.srv.URL, r.ID), map[string][]string{"version": {fmt.Sprint(cur.Version)}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: %d", res.StatusCode)
	}
	removed := page()

	hs, err := app.store.History(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var soakEntries int
	for _, h := range hs {
		if h.Section != "soak" {
			continue
		}
		soakEntries++
		if len(h.Before)+len(h.After) > 2000 {
			t.Errorf("history entry %q holds %d bytes before/after, want a summary:\n%.300s", h.Action, len(h.Before)+len(h.After), h.After)
		}
	}
	if soakEntries != 3 {
		t.Errorf("%d soak history entries, want 3 (two imports, one removal)", soakEntries)
	}
	for _, c := range []struct {
		name, page string
	}{{"after the maximal soak", pMax}, {"after its removal", removed}} {
		if n := len(historyPart(c.page)); n > 20_000 {
			t.Errorf("history part %s is %d bytes, want under 20 kB", c.name, n)
		}
	}
	// The table grows the page by its rows; nothing else does.
	perHour := float64(len(pMax)-len(p24)) / float64(importers.MaxSoakHours-24)
	if perHour > 400 {
		t.Errorf("the page grows by %.0f bytes per soak hour, want at most the table row (400)", perHour)
	}
	if d := len(removed) - len(before); d > 10_000 {
		t.Errorf("after the soak is removed the page is %d bytes larger than before it was imported, want under 10 kB (the history's lines)", d)
	}
	t.Logf("page %d bytes before, %d with 24 hours, %d with %d hours (%.0f per hour), %d after removal", len(before), len(p24), len(pMax), importers.MaxSoakHours, perHour, len(removed))
}
