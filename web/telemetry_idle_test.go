package web

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
)

// TestTelemetryIdlePowerPricesPowerByUse imports a GPU log whose GPU sat
// idle (0 % utilisation, 80 W) before and after the rows and drew 600 W
// under load: the report keeps the log's idle draw and prices power by use
// from it, against the log's own busy watts (docs/method.md, "Power by
// use"), and the costs say so.
func TestTelemetryIdlePowerPricesPowerByUse(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	var run bytes.Buffer
	if err := guidellmgen.Write(&run, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	if res, body := postFiles(t, lead, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, false, upload{"run.json", run.Bytes()}); res.StatusCode >= 400 {
		t.Fatalf("import: %d %s", res.StatusCode, body)
	}
	got := apiResult(t, app, r.ID)
	first, last := math.Inf(1), math.Inf(-1)
	for _, m := range got.Matrix {
		first = min(first, *m.Row.StartedAt)
		last = max(last, *m.Row.StartedAt+*m.Row.DurationS)
	}
	inRow := func(ts float64) bool {
		for _, m := range got.Matrix {
			if ts >= *m.Row.StartedAt && ts <= *m.Row.StartedAt+*m.Row.DurationS {
				return true
			}
		}
		return false
	}
	var smi strings.Builder
	smi.WriteString("timestamp, power.draw [W], memory.used [MiB], memory.total [MiB], utilization.gpu [%], temperature.gpu\n")
	for ts := first - 60; ts < last+60; ts += 2 {
		at := time.Unix(0, int64(ts*1e9)).UTC().Format("2006/01/02 15:04:05.000")
		if inRow(ts) {
			fmt.Fprintf(&smi, "%s, 600.00 W, 70000 MiB, 81559 MiB, 98 %%, 57\n", at)
		} else {
			fmt.Fprintf(&smi, "%s, 80.00 W, 70000 MiB, 81559 MiB, 0 %%, 40\n", at)
		}
	}
	r, _ = app.store.Report(context.Background(), r.ID)
	res, body := postEvidence(t, lead, fmt.Sprintf("%s/reports/%d/evidence/telemetry", app.srv.URL, r.ID), map[string]string{"version": fmt.Sprint(r.Version)}, "smi.csv", []byte(smi.String()))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("telemetry: %d %s", res.StatusCode, testid(body, "evidence-error-telemetry"))
	}
	tel := apiResult(t, app, r.ID)
	pu := tel.SelfHosted.Power
	if !pu.ByUse || pu.IdleWatts == nil || *pu.IdleWatts != 80 || !strings.HasPrefix(pu.IdleSource, "GPU log smi.csv: mean of ") {
		t.Fatalf("power use %+v (watts %v from %q)", pu, tel.SelfHosted.PowerWatts, tel.SelfHosted.PowerWattsSource)
	}
	if !strings.Contains(pu.Text, "80 W idle (GPU log smi.csv") || !strings.Contains(pu.Text, "600 W (measured) for the busy time") {
		t.Errorf("power text %q", pu.Text)
	}
	_, page := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	if !strings.Contains(page, `data-testid="power-use"`) || !strings.Contains(page, "Power priced by use: 80 W idle") {
		t.Error("the costs do not say power is priced by use from the log's idle draw")
	}
}
