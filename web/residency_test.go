package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"capplan/web/view"
)

// The residency form refuses what it cannot read, naming each field; a
// save answers with the section judged again, a removed route is gone,
// and the save is in the history. (What the section says of a plan is
// tested in web/view.)
func TestResidencyRoutesSaved(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/residency", app.srv.URL, id)
	route := func(f url.Values, i int, vals ...string) {
		for j := 0; j+1 < len(vals); j += 2 {
			f.Set(view.RouteField(i, vals[j]), vals[j+1])
		}
	}

	f := url.Values{"version": {reportVersion(t, app, id)}, "rows": {"2"}}
	route(f, 0, "name", "chat", "residency", "resident", "memory_budget_gib", "lots")
	route(f, 1, "name", "", "residency", "sometimes", "model", "m")
	res, body := do(t, lead, "POST", u, f)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad routes: %d", res.StatusCode)
	}
	for _, name := range []string{"routes[0].memory_budget_gib", "routes[1].name", "routes[1].residency"} {
		if !strings.Contains(body, `data-testid="err-`+name+`"`) {
			t.Errorf("no error named %s", name)
		}
	}

	// 40 resident + the larger switched 30 = 70 GiB of 72 usable (80 less 10 %).
	f = url.Values{"version": {reportVersion(t, app, id)}, "rows": {"4"}}
	route(f, 0, "name", "chat", "model", "llama-8b", "residency", "resident", "memory_budget_gib", "40", "admitted_concurrency", "8", "owner", "Ann")
	route(f, 1, "name", "code", "model", "qwen-14b", "residency", "switched", "memory_budget_gib", "30", "cold_start_s", "45")
	route(f, 2, "name", "embed", "model", "e5", "residency", "switched", "memory_budget_gib", "2", "cold_start_s", "5")
	route(f, 3, "residency", "resident") // the blank line
	res, body = do(t, lead, "POST", u, f, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("save: %d\n%.500s", res.StatusCode, body)
	}
	if got := testid(sectionOf(body, "residency"), "residency-fit"); got != "fits" {
		t.Errorf("the swapped section's fit is %q, want fits", got)
	}

	// Removing a route and raising a budget: it no longer fits.
	f = url.Values{"version": {reportVersion(t, app, id)}, "rows": {"3"}}
	route(f, 0, "name", "chat", "residency", "resident", "memory_budget_gib", "50")
	route(f, 1, "name", "code", "residency", "switched", "memory_budget_gib", "30", "cold_start_s", "45")
	route(f, 2, "name", "embed", "residency", "switched", "memory_budget_gib", "2", "remove", "1")
	if res, _ := do(t, lead, "POST", u, f); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", res.StatusCode)
	}
	_, page := do(t, app.client("reviewer"), "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	rs := sectionOf(page, "residency")
	if testid(rs, "residency-fit") != "does not fit" || strings.Contains(rs, "embed") {
		t.Errorf("after the change (reviewer's view):\n%s", rs)
	}
	h, _ := app.store.History(context.Background(), id)
	if h[0].Action != "residency plan saved: chat, code" {
		t.Errorf("history: %+v", h[0])
	}
}
