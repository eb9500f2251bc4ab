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

// GuideLLM records when each benchmark began: a GPU log is aligned to the
// rows by those times when no start is typed. (That the form then does
// not ask for one, and does where the files do not record them, is tested
// in web/view.)
func TestTelemetryTakesStartsFromTheResultFiles(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	var run bytes.Buffer
	if err := guidellmgen.Write(&run, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	res, body := postFiles(t, lead, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, false, upload{"run.json", run.Bytes()})
	if res.StatusCode >= 400 {
		t.Fatalf("import: %d %s", res.StatusCode, body)
	}
	got := apiResult(t, app, r.ID)
	if len(got.Matrix) != 5 {
		t.Fatalf("%d rows", len(got.Matrix))
	}
	// The rows run one after another with gaps between them: laid end to
	// end from the first start they would drift off their windows.
	first, last := math.Inf(1), math.Inf(-1)
	for i, m := range got.Matrix {
		if m.Row.StartedAt == nil || m.Row.Paths["started_at"] != fmt.Sprintf("benchmarks[%d].start_time", i) {
			t.Fatalf("row %d: start %v from %q", i, m.Row.StartedAt, m.Row.Paths["started_at"])
		}
		first = min(first, *m.Row.StartedAt)
		last = max(last, *m.Row.StartedAt+*m.Row.DurationS)
	}
	// A log over the whole run, one sample every 2 s.
	var smi strings.Builder
	smi.WriteString("timestamp, power.draw [W], memory.used [MiB], memory.total [MiB], utilization.gpu [%], temperature.gpu\n")
	for ts := first - 10; ts < last+10; ts += 2 {
		at := time.Unix(0, int64(ts*1e9)).UTC()
		fmt.Fprintf(&smi, "%s, 600.00 W, 70000 MiB, 81559 MiB, 98 %%, 57\n", at.Format("2006/01/02 15:04:05.000"))
	}

	r, _ = app.store.Report(context.Background(), r.ID)
	base := fmt.Sprintf("%s/reports/%d/evidence/", app.srv.URL, r.ID)
	res, body = postEvidence(t, lead, base+"telemetry", map[string]string{"version": fmt.Sprint(r.Version)}, "smi.csv", []byte(smi.String()))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("telemetry without a typed start: %d %s", res.StatusCode, testid(body, "evidence-error-telemetry"))
	}
	tel := apiResult(t, app, r.ID)
	if tel.Telemetry.RowsCovered != 5 {
		t.Errorf("%d of 5 rows covered", tel.Telemetry.RowsCovered)
	}
	for _, m := range tel.Matrix {
		if tl := m.Row.Telemetry; tl == nil || tl.Partial {
			t.Errorf("row %v: telemetry %+v, want the whole window", m.Load, tl)
		}
	}
}
