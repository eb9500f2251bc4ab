package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"capplan/web/reports"
	"capplan/web/store"
)

// Two people working on one report from the same version: saves of
// different sections both go through; of the same section, the second is
// refused with 409 and shows what the first changed, keeping what was typed.
func TestSaveConcurrencyIsPerSection(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := seedMatrix(t, app)
	r, _ := app.store.Report(ctx, id)
	if err := app.store.SetEditors(ctx, store.Edit{ReportID: id, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "editors changed", Section: "report"}, []int64{app.users["lead2"].ID}); err != nil {
		t.Fatal(err)
	}
	base := reportVersion(t, app, id)
	lead, lead2 := app.client("lead"), app.client("lead2")
	overload := func(sent string) url.Values {
		return url.Values{"version": {base}, "sent": {sent}, "outcome": {"429-retry-after"},
			"retry_after": {"1"}, "worker_healthy": {"1"}, "recovered": {"1"}, "date": {"2026-11-20"}}
	}
	admission := url.Values{"version": {base}, "queue_size": {"6"}}
	u := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	// Different sections from the same version: both saved.
	if res, body := do(t, lead, "POST", u+"/overload", overload("20 streams for 60 s")); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("overload save: %d\n%.300s", res.StatusCode, body)
	}
	if res, body := do(t, lead2, "POST", u+"/admission", admission); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("admission save from the same version: %d, want 303 (a different section merges)\n%.300s", res.StatusCode, body)
	}
	rep, err := reports.New(app.store, "", time.Now).Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rep.In.Overload.Sent != "20 streams for 60 s" || rep.In.Admission.QueueSize == nil || *rep.In.Admission.QueueSize != 6 {
		t.Fatalf("both saves should be kept: overload %q, admission %+v", rep.In.Overload.Sent, rep.In.Admission)
	}

	// The same section from the same (now stale) version: refused, with the diff.
	res, body := do(t, lead2, "POST", u+"/overload", overload("40 streams for 30 s"))
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("same-section save from a stale version: %d, want 409\n%.300s", res.StatusCode, body)
	}
	conflict := between(body, `data-testid="conflict"`, "</div>")
	if !strings.Contains(conflict, "overload test recorded") || !strings.Contains(conflict, "20 streams for 60 s") {
		t.Errorf("the conflict should show the other save's change:\n%s", conflict)
	}
	if strings.Contains(conflict, "admission") {
		t.Errorf("the conflict should list only the section's own changes:\n%s", conflict)
	}
	if !strings.Contains(body, `value="40 streams for 30 s"`) {
		t.Error("the refused form should keep what was typed")
	}
	rep, _ = reports.New(app.store, "", time.Now).Load(ctx, id)
	if rep.In.Overload.Sent != "20 streams for 60 s" {
		t.Errorf("the refused save changed the overload test to %q", rep.In.Overload.Sent)
	}
}
