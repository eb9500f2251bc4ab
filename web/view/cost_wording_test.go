package view

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
	if err := quoteForm(QuotesView{CanEdit: true}, "/quotes").Render(t.Context(), &b); err != nil {
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

// The evidence table names inputs by their labels, not field keys, and
// says "no evidence date" of an undated one rather than calling it stale.
func TestEvidenceTableWording(t *testing.T) {
	r := planner.Result{StaleAfterDays: 90, AsOf: "2026-12-01", Stale: 1, Evidence: []planner.Evidence{
		{Field: "self_hosted.labour_rate", Amount: "60", Unit: "EUR/h", Source: "finance", EvidenceDate: "2026-11-01"},
		{Field: "quotes[Provider X].input_per_m_tokens", Amount: "2", Unit: "EUR/1M tokens", Stale: true, Problem: "no evidence date"},
	}}
	var b strings.Builder
	if err := evidenceTable(r).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, key := range []string{"self_hosted.labour_rate", "quotes[Provider X]", "input_per_m_tokens"} {
		if strings.Contains(html, key) {
			t.Errorf("the evidence table shows the key %q", key)
		}
	}
	for _, want := range []string{planner.FieldLabel("self_hosted.labour_rate"), planner.FieldLabel("quotes[Provider X].input_per_m_tokens"), ">no evidence date<"} {
		if !strings.Contains(html, want) {
			t.Errorf("the evidence table lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "stale: no evidence date") {
		t.Error("undated evidence called stale")
	}
}
