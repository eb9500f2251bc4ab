package web

import (
	"strings"
	"testing"

	"capplan/planner"
)

// A quote's price labels name a currency code or none: never a dash or
// whatever was typed into the currency field.
func TestQuoteUnitLabels(t *testing.T) {
	for _, tc := range []struct{ unit, typed, want string }{
		{"CUR/1M tokens", "", "per 1M tokens"},
		{"CUR/month", "", "per month"},
		{"CUR/1M tokens", "euro", "per 1M tokens"},
		{"CUR/1M tokens", " usd ", "USD/1M tokens"},
		{"CUR/month", "EUR", "EUR/month"},
		{"fraction", "", "fraction"},
	} {
		if got := quoteUnit(tc.unit, tc.typed); got != tc.want {
			t.Errorf("quoteUnit(%q, %q) = %q, want %q", tc.unit, tc.typed, got, tc.want)
		}
	}
	var b strings.Builder
	if err := quoteForm(quotesView{CanEdit: true}, "/quotes").Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "—/") || !strings.Contains(b.String(), "Input tokens price (per 1M tokens)") {
		t.Errorf("blank currency labels:\n%s", between(b.String(), "Input tokens price", "</label>"))
	}
}

// Undated evidence says so; only dated evidence is called stale.
func TestEvidenceStatus(t *testing.T) {
	days := 120
	for _, tc := range []struct {
		e    planner.Evidence
		want string
	}{
		{planner.Evidence{Stale: true, Problem: "no evidence date"}, "no evidence date"},
		{planner.Evidence{Stale: true, Problem: "malformed evidence date"}, "malformed evidence date"},
		{planner.Evidence{Stale: true, AgeDays: &days, Problem: "120 days old, older than 90 days"}, "stale: 120 days old, older than 90 days"},
	} {
		if got := evidenceStatus(tc.e); got != tc.want {
			t.Errorf("evidenceStatus(%+v) = %q, want %q", tc.e, got, tc.want)
		}
	}
}

// The evidence table names inputs by their form labels, quotes' prices too.
func TestEvidenceFieldLabels(t *testing.T) {
	for field, want := range map[string]string{
		"self_hosted.labour_rate":               "Operator labour loaded rate",
		"quotes[Provider X].input_per_m_tokens": "Input tokens price, quote Provider X",
		"quotes[a.b].retry_rate":                "Expected retry/failure rate, quote a.b",
	} {
		if got := fieldLabel(field); got != want {
			t.Errorf("fieldLabel(%q) = %q, want %q", field, got, want)
		}
	}
}
