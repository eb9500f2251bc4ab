package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestAdmissionOverrideNeedsAReason(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/admission", app.srv.URL, id)

	res, body := do(t, lead, "POST", u, url.Values{"version": {reportVersion(t, app, id)}, "override_max_in_flight": {"6"}, "client_max_retries": {"9"}, "max_queue_age_s": {"soon"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("override without reason: %d", res.StatusCode)
	}
	for _, f := range []string{"override_reason", "client_max_retries", "max_queue_age_s"} {
		if !strings.Contains(body, `data-testid="err-`+f+`"`) {
			t.Errorf("no error named %s", f)
		}
	}

	res, body = do(t, lead, "POST", u, url.Values{"version": {reportVersion(t, app, id)}, "override_max_in_flight": {"6"}, "override_reason": {"shared box"}, "queue_size": {"12"}},
		"HX-Request", "true")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("override: %d", res.StatusCode)
	}
	// The swap is the envelope as saved (what it shows of an override:
	// web/view's TestEnvelopeShowsAnOverriddenAdmissionLimit).
	if env := sectionOf(body, "envelope"); !strings.Contains(env, `data-testid="overridden"`) {
		t.Errorf("the swapped envelope does not show the override: %.300s", env)
	}
	if !strings.Contains(body, `id="history"`) {
		t.Error("no history swap")
	}
	h, _ := app.store.History(context.Background(), id)
	if h[0].Action != "admission limit overridden: shared box" || !strings.Contains(h[0].After, "Max in flight (override): 6") {
		t.Errorf("history: %+v", h[0])
	}
	if res, _ := do(t, app.client("reviewer"), "POST", u, url.Values{"version": {reportVersion(t, app, id)}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("reviewer: %d", res.StatusCode)
	}
}

func TestStaleAdmissionSaveIsAConflict(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	// Another editor saves the admission settings first, from the same version.
	base := reportVersion(t, app, id)
	if res, _ := do(t, app.client("lead"), "POST", fmt.Sprintf("%s/reports/%d/admission", app.srv.URL, id),
		url.Values{"version": {base}, "queue_size": {"6"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first save: %d", res.StatusCode)
	}
	res, body := do(t, app.client("lead"), "POST", fmt.Sprintf("%s/reports/%d/admission", app.srv.URL, id),
		url.Values{"version": {base}, "queue_size": {"4"}}, "HX-Request", "true")
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="conflict"`) || !strings.Contains(body, `value="4"`) {
		t.Errorf("stale save: %d\n%.300s", res.StatusCode, body)
	}
}
