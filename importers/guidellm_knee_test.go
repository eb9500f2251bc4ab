package importers

import (
	"strings"
	"testing"

	"capplan/planner"
)

// TestGuideLLMKnee: a run of GuideLLM's knee profile is a concurrency
// sweep; the knee its conclusion found is marked on the first measured
// level at or above it; a run without a conclusion, or with no knee,
// says so.
func TestGuideLLMKnee(t *testing.T) {
	raw := string(mustRead(t, "testdata/guidellm_e_knee.json"))
	f, err := Parse("benchmarks.json", strings.NewReader(raw), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rows) != 5 || !strings.Contains(f.Source.FormatVersion, "knee profile") {
		t.Fatalf("%d rows, format %q", len(f.Rows), f.Source.FormatVersion)
	}
	for i, want := range []float64{1, 4, 16, 32, 64} {
		r := f.Rows[i]
		if r.LoadKind != planner.LoadConcurrency || *r.Load != want {
			t.Errorf("row %d: %s %v, want concurrency %g", i, r.LoadKind, *r.Load, want)
		}
		if hasCode(r.Warnings, "knee") != (i == 3) {
			t.Errorf("row %d knee mark: %v", i, r.Warnings)
		}
	}
	if !strings.Contains(f.Rows[3].Paths["knee"], "benchmarks[4].config.profile.conclusion") {
		t.Errorf("knee path %q", f.Rows[3].Paths["knee"])
	}
	var said string
	for _, w := range f.Warnings {
		if w.Code == "knee" {
			said = w.Message
		}
	}
	if !strings.Contains(said, "flattening at about 19.6 concurrent streams") || !strings.Contains(said, "marked on row 3 (32 streams)") {
		t.Errorf("file says %q", said)
	}

	none := strings.Replace(raw, `"status":"ok","reason":"A rising segment followed by a substantially flatter tail was detected","knee":19.6,"saturation_concurrency":32.0,"breakpoint_concurrency":16.0,"pre_slope":1.31,"tail_slope":0.05,"slope_ratio":0.038,"fit_improvement":0.93,"throughput_fraction":0.87},"saturation":{"status":"unavailable","reason":"The benchmarks contain no over-saturation detector metadata","points":[{"concurrency":1.0,"is_over_saturated":null},{"concurrency":4.0,"is_over_saturated":null},{"concurrency":16.0,"is_over_saturated":null},{"concurrency":32.0,"is_over_saturated":null},{"concurrency":64.0,"is_over_saturated":null}]},"assessment":{"status":"throughput_only","reason":"Only the throughput knee is available","selection_center":19.6}}}`,
		`"status":"no_knee","reason":"The throughput curve is approximately linear"}}}`, 1)
	if none == raw {
		t.Fatal("fixture changed: the final analysis was not found")
	}
	f, err = Parse("benchmarks.json", strings.NewReader(none), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(f.Warnings, "knee-none") || !strings.Contains(f.Warnings[len(f.Warnings)-1].Message, "approximately linear") {
		t.Errorf("no knee: %v", f.Warnings)
	}
	i := strings.Index(raw, `,"conclusion":`)
	j := strings.Index(raw[i:], `"final":`)
	if i < 0 || j < 0 {
		t.Fatal("fixture changed: no conclusion")
	}
	bare := strings.Replace(raw, `"rampup_duration":0.0,"conclusion":`, `"rampup_duration":0.0,"conclusion_":`, 1)
	f, err = Parse("benchmarks.json", strings.NewReader(bare), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(f.Warnings, "knee-unknown") {
		t.Errorf("no conclusion: %v", f.Warnings)
	}
	for _, r := range f.Rows {
		if hasCode(r.Warnings, "knee") {
			t.Errorf("a knee marked without a conclusion")
		}
	}
}
