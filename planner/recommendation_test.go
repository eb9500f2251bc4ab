package planner

import (
	"strings"
	"testing"
)

func TestRecommendationSanity(t *testing.T) {
	tests := []struct {
		name      string
		mutate    func(*Inputs)
		wantField string   // a refused input, "" for none
		wantExit  string   // the recommendation exit item's detail contains it; "" means the item passes
		wantWarn  []string // warnings, in order
	}{
		{name: "sound: self-hosting cheaper, gates pass", mutate: func(in *Inputs) { in.Quotes[0] = flatQuote("api-a", "0.05") }},
		{name: "expiry before the review date", mutate: func(in *Inputs) {
			in.Quotes[0] = flatQuote("api-a", "0.05")
			in.Recommendation.Expiry = "2027-01-01"
		}, wantField: "recommendation.expiry"},
		{name: "expiry on the review date", mutate: func(in *Inputs) {
			in.Quotes[0] = flatQuote("api-a", "0.05")
			in.Recommendation.Expiry = in.Recommendation.ReviewDate
		}, wantField: "recommendation.expiry"},
		{name: "review date past", mutate: func(in *Inputs) {
			in.Quotes[0] = flatQuote("api-a", "0.05")
			in.Recommendation.ReviewDate = "2026-10-01"
		}, wantExit: "the review date 2026-10-01 is already past (the report is as of 2026-11-29)"},
		{name: "expired", mutate: func(in *Inputs) {
			in.Quotes[0] = flatQuote("api-a", "0.05")
			in.Recommendation.ReviewDate, in.Recommendation.Expiry = "2026-09-01", "2026-11-01"
		}, wantExit: "the recommendation expired on 2026-11-01"},
		{name: "keep while a gate fails", mutate: func(in *Inputs) {
			in.Quotes[0] = flatQuote("api-a", "0.05")
			in.Recommendation.Gates[0] = NonFinancialGate{"Data location", false, "the box is in the US"}
		}, wantWarn: []string{"the decision is to keep self-hosting, but the data location gate fails: the box is in the US"}},
		{name: "keep while the API is cheaper", mutate: func(in *Inputs) {},
			wantWarn: []string{"the decision is to keep self-hosting, but in the expected scenario (80,000 requests a month) api-a costs 30.00 EUR per 1,000 requests, less than self-hosting's 36.92 EUR"}},
		{name: "stop while the API is cheaper", mutate: func(in *Inputs) { in.Recommendation.Decision = "stop" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := demoInputs()
			tt.mutate(&in)
			r := Compute(in)
			var fields []string
			for _, p := range r.Problems {
				fields = append(fields, p.Field)
			}
			if got := strings.Join(fields, ","); got != tt.wantField {
				t.Errorf("problems = %v, want %q", r.Problems, tt.wantField)
			}
			for _, it := range r.ExitCheck {
				if it.ID != "recommendation" {
					continue
				}
				if tt.wantExit == "" && !it.Pass {
					t.Errorf("recommendation fails: %s", it.Detail)
				}
				if tt.wantExit != "" && (it.Pass || !strings.Contains(it.Detail, tt.wantExit)) {
					t.Errorf("recommendation pass %v, detail %q, want %q", it.Pass, it.Detail, tt.wantExit)
				}
			}
			if strings.Join(r.RecommendationWarnings, "|") != strings.Join(tt.wantWarn, "|") {
				t.Errorf("warnings = %q, want %q", r.RecommendationWarnings, tt.wantWarn)
			}
		})
	}
}
