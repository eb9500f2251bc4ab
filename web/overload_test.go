package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestOverloadTestRecordedAndJudged(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/overload", app.srv.URL, id)

	_, page := do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	if !strings.Contains(sectionOf(page, "overload"), "not recorded") {
		t.Error("an unrecorded test is not said so")
	}
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
	ov := sectionOf(body, "overload")
	for _, want := range []string{`<span class="badge pass" data-testid="overload-verdict">pass</span>`, "excess requests were refused with 429 and Retry-After", "20 streams for 60 s"} {
		if !strings.Contains(ov, want) {
			t.Errorf("overload lacks %q", want)
		}
	}

	// Without Retry-After and a sick worker it fails, with the reasons.
	res, body = do(t, lead, "POST", u, url.Values{"version": {reportVersion(t, app, id)}, "sent": {"20 streams"}, "outcome": {"429-retry-after"}, "recovered": {"1"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("save: %d", res.StatusCode)
	}
	ov = sectionOf(body, "overload")
	for _, want := range []string{`data-testid="overload-verdict">fail`, "429 without Retry-After", "did not stay healthy"} {
		if !strings.Contains(ov, want) {
			t.Errorf("overload lacks %q", want)
		}
	}
	h, _ := app.store.History(context.Background(), id)
	if h[0].Action != "overload test recorded" || !strings.Contains(h[0].Before, "Worker stayed healthy: yes") {
		t.Errorf("history: %+v", h[0])
	}
}
