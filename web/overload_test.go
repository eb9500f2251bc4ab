package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The overload test's form refuses what it cannot read, naming each
// field; a save answers with the section judged again and is in the
// history. (What the section says of a test is tested in web/view.)
func TestOverloadTestRecordedAndJudged(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/overload", app.srv.URL, id)

	res, body := do(t, lead, "POST", u, url.Values{"version": {reportVersion(t, app, id)}, "outcome": {"teapot"}, "date": {"20 Nov"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad test: %d", res.StatusCode)
	}
	for _, f := range []string{"sent", "outcome", "date"} {
		if !strings.Contains(body, `data-testid="err-`+f+`"`) {
			t.Errorf("no error named %s", f)
		}
	}

	res, body = do(t, lead, "POST", u, url.Values{"version": {reportVersion(t, app, id)}, "sent": {"20 streams for 60 s"}, "outcome": {"429-retry-after"},
		"retry_after": {"1"}, "worker_healthy": {"1"}, "recovered": {"1"}, "date": {"2026-11-20"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("save: %d", res.StatusCode)
	}
	if got := testid(sectionOf(body, "overload"), "overload-verdict"); got != "pass" {
		t.Errorf("the swapped section's verdict is %q, want pass", got)
	}

	// Without Retry-After and a sick worker it fails, with the reasons.
	res, body = do(t, lead, "POST", u, url.Values{"version": {reportVersion(t, app, id)}, "sent": {"20 streams"}, "outcome": {"429-retry-after"}, "recovered": {"1"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("save: %d", res.StatusCode)
	}
	if got := testid(sectionOf(body, "overload"), "overload-verdict"); got != "fail" {
		t.Errorf("the swapped section's verdict is %q, want fail", got)
	}
	h, _ := app.store.History(context.Background(), id)
	if h[0].Action != "overload test recorded" || !strings.Contains(h[0].Before, "Worker stayed healthy: yes") {
		t.Errorf("history: %+v", h[0])
	}
}
