package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The history reads in sentences: each changed field by its label with
// before → after, list items by their number, never raw JSON, never a line
// without a label.
func TestHistoryInSentences(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	res, body := do(t, lead, "POST", base+"/recommendation", url.Values{"version": {reportVersion(t, app, id)}, "decision": {"change"},
		"owner": {"A. Lead"}, "review_date": {"2027-03-01"}, "gates[0].verdict": {"pass"}, "gates[0].note": {"EU region"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("recommendation: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	res, body = do(t, lead, "POST", base+"/scenarios", url.Values{"version": {reportVersion(t, app, id)},
		"scenarios[0].monthly_requests": {"35000"}, "scenarios[0].busy_hour_kind": {"day_share"}, "scenarios[0].busy_hour": {"0.11"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("scenarios: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	_, page := do(t, lead, "GET", base+"/history", nil)
	hist := between(page, `data-testid="history"`, "</section>")
	for _, want := range []string{
		"Recommendation owner: (none) → A. Lead",
		"Gate 1: name: (none) → " + "data location",
		"Gate 1: outcome: (none) → yes",
		"Scenario 1: name: (none) → low",
		"Scenario 1: monthly requests: (none) → 35000",
	} {
		if !strings.Contains(hist, want) {
			t.Errorf("history lacks %q", want)
		}
	}
	lines := regexp.MustCompile(`<td class="diff" data-testid="history-change"[^>]*>(.*?)</td>`).FindAllStringSubmatch(hist, -1)
	if len(lines) == 0 {
		t.Fatal("no change column in the history")
	}
	for _, l := range lines {
		for _, d := range regexp.MustCompile(`<div>(.*?)</div>`).FindAllStringSubmatch(l[1], -1) {
			if strings.HasPrefix(d[1], ":") || strings.Contains(d[1], "[{") || strings.Contains(d[1], "&#34;") || strings.Contains(d[1], `{&#34;`) {
				t.Errorf("history line %q: raw JSON or no label", d[1])
			}
		}
	}
}
