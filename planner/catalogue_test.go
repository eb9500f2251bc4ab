package planner

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func dp(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

func TestCompareCatalogue(t *testing.T) {
	older := []CataloguePrice{
		{Key: "gpt-4o", Input: dp("2.5"), Output: dp("10"), CacheRead: dp("1.25")},
		{Key: "claude", Input: dp("3"), Output: dp("15")},
		{Key: "gone", Input: dp("1"), Output: dp("2")},
		{Key: "same", Input: dp("1"), Output: dp("2")},
	}
	newer := []CataloguePrice{
		{Key: "gpt-4o", Input: dp("2.00"), Output: dp("10"), CacheRead: dp("1")},
		{Key: "claude", Input: dp("3"), Output: dp("18"), BatchInput: dp("1.5")},
		{Key: "new-model", Input: dp("1"), Output: dp("2")},
		{Key: "same", Input: dp("1.0"), Output: dp("2")},
	}
	ch := CompareCatalogue(older, newer)
	if strings.Join(ch.Added, ",") != "new-model" || strings.Join(ch.Removed, ",") != "gone" || ch.Unchanged != 1 {
		t.Fatalf("added %v removed %v unchanged %d", ch.Added, ch.Removed, ch.Unchanged)
	}
	var got []string
	for _, m := range ch.Moves {
		got = append(got, m.Sentence())
	}
	want := []string{
		"claude: output price 15.00 → 18.00 USD per 1M tokens (+20 %)",
		"claude: batch input price none → 1.50 USD per 1M tokens",
		"gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)",
		"gpt-4o: cached input price 1.25 → 1.00 USD per 1M tokens (−20 %)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("moves:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !ch.Moves[0].Up || ch.Moves[2].Up || strings.Join(ch.Moved(), ",") != "claude,gpt-4o" || len(ch.MovesOf("gpt-4o")) != 2 {
		t.Errorf("up/down or moved keys wrong: %+v", ch.Moves)
	}
}

func TestCatalogueAge(t *testing.T) {
	today := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	cases := []struct {
		date  string
		days  int
		stale bool
		text  string
	}{
		{"2026-12-02", 0, false, "retrieved today"},
		{"2026-11-02", 30, false, "retrieved 30 days ago"},
		{"2026-11-01", 31, true, "retrieved 31 days ago: stale (older than 30 days)"},
		{"", 0, true, "no retrieval date: stale"},
	}
	for _, c := range cases {
		d, s := CatalogueAge(c.date, today)
		if c.date != "" && (d != c.days || s != c.stale) {
			t.Errorf("%s: %d days stale %v", c.date, d, s)
		}
		if got := AgeText(c.date, today); got != c.text {
			t.Errorf("%s: %q, want %q", c.date, got, c.text)
		}
	}
}

func TestCatalogueQuoteBatch(t *testing.T) {
	p := CataloguePrice{Key: "m", Input: dp("2"), Output: dp("8"), BatchInput: dp("1"), BatchOutput: dp("4"), CacheRead: dp("0.5")}
	q := p.Quote(CatalogueLiteLLM, "2026-12-01")
	if q.BatchDiscount == nil || !q.BatchDiscount.Amount.Equal(decimal.RequireFromString("0.5")) || q.BatchShare == nil || !q.BatchShare.Amount.IsZero() {
		t.Fatalf("batch discount %+v share %+v", q.BatchDiscount, q.BatchShare)
	}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	// With no batch traffic stated, the batch tier changes nothing.
	plain := p
	plain.BatchInput, plain.BatchOutput = nil, nil
	a, b := QuoteMonthly(q, 1000, 500, "contract"), QuoteMonthly(plain.Quote(CatalogueLiteLLM, "2026-12-01"), 1000, 500, "contract")
	if !a.PerRequest.Exact.Equal(b.PerRequest.Exact) || a.PerRequest.Exact.String() != "0.006" {
		t.Errorf("per request %s and %s, want 0.006 both: (1000 x 2 + 500 x 8) / 1M", a.PerRequest.Exact, b.PerRequest.Exact)
	}
	// Unequal batch discounts on input and output are not one discount.
	p.BatchOutput = dp("6")
	if _, ok := p.BatchDiscount(); ok {
		t.Error("unequal batch discounts made one")
	}
}

func TestCatalogueMatch(t *testing.T) {
	terms := CatalogueTerms(" GPT-4o, claude ,,")
	if len(terms) != 2 || !CatalogueMatch("openai/gpt-4o-mini", terms) || !CatalogueMatch("anthropic/Claude-x", terms) || CatalogueMatch("mistral-large", terms) || !CatalogueMatch("any", nil) {
		t.Errorf("terms %q", terms)
	}
}

// A quote priced from a public catalogue goes stale after
// CatalogueStaleDays even when the report allows older evidence: its
// prices are then stale in the report's evidence (saying whose limit), and
// the exit check's evidence item fails. The same prices typed from an
// offer stay current under the report's 90 days.
func TestCatalogueQuoteStaleSooner(t *testing.T) {
	old := "2026-10-20" // 40 days before demoInputs' AsOf, 2026-11-29
	quote := func(catalogue string) Inputs {
		in := demoInputs()
		q := flatQuote("LiteLLM: gpt-4o", "0.03")
		q.InputPerMTokens.EvidenceDate, q.OutputPerMTokens.EvidenceDate = old, old
		q.Catalogue = catalogue
		in.Quotes = []Quote{q}
		return in
	}
	priceEvidence := func(r Result) []Evidence {
		var out []Evidence
		for _, e := range r.Evidence {
			if strings.HasSuffix(e.Field, "input_per_m_tokens") || strings.HasSuffix(e.Field, "output_per_m_tokens") {
				out = append(out, e)
			}
		}
		return out
	}
	exitHolds := func(r Result) bool {
		for _, it := range r.ExitCheck {
			if it.ID == "evidence_dates" {
				return it.Pass
			}
		}
		t.Fatal("no evidence_dates exit item")
		return false
	}

	typed := Compute(quote(""))
	if typed.StaleAfterDays != 90 {
		t.Fatalf("the report's limit is %d days, want 90", typed.StaleAfterDays)
	}
	for _, e := range priceEvidence(typed) {
		if e.Stale {
			t.Errorf("a typed quote's %s, 40 days old, is stale: %s", e.Field, e.Problem)
		}
	}
	if !exitHolds(typed) {
		t.Error("the typed quote fails the evidence item")
	}

	cat := Compute(quote(CatalogueLiteLLM))
	got := priceEvidence(cat)
	if len(got) != 2 {
		t.Fatalf("price evidence %+v", got)
	}
	for _, e := range got {
		if !e.Stale || e.Problem != "40 days old, older than 30 days (the LiteLLM catalogue's limit)" {
			t.Errorf("a catalogue quote's %s: stale %v, problem %q", e.Field, e.Stale, e.Problem)
		}
	}
	if exitHolds(cat) {
		t.Error("a stale catalogue price passes the evidence item")
	}
}
