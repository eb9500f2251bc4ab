package importers

import (
	"strings"
	"testing"

	"capplan/planner"
)

// TestUnmeasuredRates: with a measured duration of zero or no request
// succeeded, rates computed from the window are left out with a warning;
// what the tool reported is kept when it is meaningful.
func TestUnmeasuredRates(t *testing.T) {
	type rates struct{ req, ach, out, send *float64 }
	tests := []struct {
		name     string
		row      func(b *builder)
		want     rates
		wantWarn string // "" means no rates-unmeasured warning
	}{
		{name: "all failed in 5 ms: the computed send rate goes, the tool's zeros stay, no achieved rate", row: func(b *builder) {
			b.countInt(&b.row.Successful, "successful", "completed", 0)
			b.countInt(&b.row.Errored, "errored", "failed", 8)
			b.countInt(&b.row.Attempted, "attempted", "computed: completed + failed", 8)
			b.setF(&b.row.DurationS, "duration_s", "duration", 0.00503)
			b.setF(&b.row.SendRate, "send_rate", "computed: (completed + failed) / duration", 8/0.00503)
			b.setF(&b.row.RequestRate, "request_rate", "request_throughput", 0)
			b.setF(&b.row.OutputTokenRate, "output_token_rate", "output_throughput", 0)
		}, want: rates{req: planner.F(0), out: planner.F(0)},
			wantWarn: "no request succeeded in the 0.00503 s measured window: the send rate cannot be measured and is left out"},
		{name: "none succeeded but the tool reports a request rate: a contradiction, dropped; its send rate stays", row: func(b *builder) {
			b.countInt(&b.row.Successful, "successful", "completed", 0)
			b.countInt(&b.row.Errored, "errored", "failed", 3)
			b.setF(&b.row.DurationS, "duration_s", "duration", 10)
			b.setF(&b.row.RequestRate, "request_rate", "request_throughput", 0.3)
			b.setF(&b.row.SendRate, "send_rate", "load_summary.achieved_rate", 0.3)
		}, want: rates{send: planner.F(0.3)},
			wantWarn: "no request succeeded in the 10 s measured window: the request rate cannot be measured and is left out"},
		{name: "zero duration: computed rates go", row: func(b *builder) {
			b.countInt(&b.row.Successful, "successful", "completed", 5)
			b.countInt(&b.row.Errored, "errored", "failed", 0)
			b.setF(&b.row.DurationS, "duration_s", "duration", 0)
			b.setF(&b.row.RequestRate, "request_rate", "computed: completed / duration", 1e6)
			b.setF(&b.row.OutputTokenRate, "output_token_rate", "computed: output tokens / duration", 1e6)
			b.setF(&b.row.SendRate, "send_rate", "achieved", 2)
		}, want: rates{send: planner.F(2)},
			wantWarn: "the measured duration is 0 s: the request rate and output token rate cannot be measured and are left out"},
		{name: "a measured window with successes keeps everything", row: func(b *builder) {
			b.countInt(&b.row.Successful, "successful", "completed", 200)
			b.countInt(&b.row.Errored, "errored", "failed", 0)
			b.setF(&b.row.DurationS, "duration_s", "duration", 60)
			b.setF(&b.row.RequestRate, "request_rate", "computed: completed / duration", 200.0/60)
		}, want: rates{req: planner.F(200.0 / 60), ach: planner.F(200.0 / 60)}},
	}
	eq := func(a, b *float64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuilder()
			b.row.LoadKind = planner.LoadThroughput
			tt.row(b)
			r, err := b.finish()
			if err != nil {
				t.Fatal(err)
			}
			if !eq(r.RequestRate, tt.want.req) || !eq(r.AchievedRate, tt.want.ach) || !eq(r.OutputTokenRate, tt.want.out) || !eq(r.SendRate, tt.want.send) {
				t.Errorf("rates req %v ach %v out %v send %v, want %v %v %v %v", fp(r.RequestRate), fp(r.AchievedRate), fp(r.OutputTokenRate), fp(r.SendRate), fp(tt.want.req), fp(tt.want.ach), fp(tt.want.out), fp(tt.want.send))
			}
			var got string
			for _, w := range r.Warnings {
				if w.Code == "rates-unmeasured" {
					got = w.Message
				}
			}
			if got != tt.wantWarn {
				t.Errorf("warning = %q, want %q", got, tt.wantWarn)
			}
			for _, name := range []string{"request_rate", "achieved_rate", "output_token_rate", "send_rate"} {
				if _, ok := r.Paths[name]; ok && strings.Contains(got, strings.ReplaceAll(name, "_", " ")) {
					t.Errorf("path of the dropped %s kept", name)
				}
			}
		})
	}

	// The real file: 8 requests, all failed, in 5 ms.
	f, err := ParseFile(real("vllm", "er0080__vllm-benchmarking__bench_serve_all_requests_failed_v0.25.1.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rows[0]
	if r.AchievedRate != nil || r.RequestRate == nil || *r.RequestRate != 0 {
		t.Errorf("all-failed file: achieved %v, request rate %v", fp(r.AchievedRate), fp(r.RequestRate))
	}
}

func fp(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestAchievedRateOfACollapsedStage: an inference-perf stage that asked for
// 60 req/s, sent 62.98 req/s, and had 826 requests succeed and 674 time
// out achieved 2.55 req/s, not the send rate; the send rate stays beside
// it and the mismatch is warned.
func TestAchievedRateOfACollapsedStage(t *testing.T) {
	in := `{"load_summary": {"count": 1500, "schedule_delay": {"mean": 0.001}, "send_duration": 23.82, "requested_rate": 60, "achieved_rate": 62.98},
		"successes": {"count": 826, "latency": {
			"request_latency": {"mean": 120, "median": 118, "p95": 280, "p99": 295},
			"time_to_first_token": {"mean": 90, "median": 88, "p95": 250, "p99": 270}},
			"throughput": {"input_tokens_per_sec": 500, "output_tokens_per_sec": 255, "requests_per_sec": 2.55}},
		"failures": {"count": 674, "request_latency": {"mean": 300}}}`
	f, err := Parse("stage_3_lifecycle_metrics.json", strings.NewReader(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rows[0]
	checkF(t, "achieved rate", r.AchievedRate, 2.55)
	checkF(t, "send rate", r.SendRate, 62.98)
	checkF(t, "load", r.Load, 60)
	if !strings.Contains(r.Paths["send_rate"], "load_summary.achieved_rate") {
		t.Errorf("send rate path %q", r.Paths["send_rate"])
	}
	var msg string
	for _, w := range r.Warnings {
		if w.Code == "rate-mismatch" {
			msg = w.Message
		}
	}
	if msg != "requested 60 req/s but 2.55 req/s succeeded (96 % off); requests were sent at 63 req/s, failed ones included" {
		t.Errorf("rate-mismatch %q", msg)
	}
}
