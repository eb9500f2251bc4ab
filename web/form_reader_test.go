package web

import (
	"net/url"
	"regexp"
	"testing"

	"capplan/web/view"
)

// Every form is read by formReader, so a field that does not parse is
// refused in one wording, whatever the form: what the field must be, then
// what was typed ("must be a whole number; got "1.5"").
func TestEveryFormRefusesUnparsedFieldsInOneWording(t *testing.T) {
	oneWording := regexp.MustCompile(`^must be .+; got ".*"$`)
	type refused struct {
		form, field string
		errs        view.FormErrors
	}
	var cases []refused
	add := func(form, field string, errs view.FormErrors) { cases = append(cases, refused{form, field, errs}) }

	_, errs := contractForm(url.Values{"workload.prompt_tokens": {"1.5"}, "objective.e2e_max_s": {"abc"}, "test_date": {"28.11.2026"},
		"loads": {"1, x"}, "objective.min_success": {"most"}})
	for _, f := range []string{"workload.prompt_tokens", "objective.e2e_max_s", "test_date", "loads", "objective.min_success"} {
		add("contract", f, errs)
	}
	_, errs = readSelfHostedForm(url.Values{"self_hosted.hosting": {"12x"}}, "EUR")
	add("self-hosted costs", "self_hosted.hosting", errs)
	_, errs = settingsForm(url.Values{"currency": {"EURO"}, "max_boxes": {"two"}, "exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0,9x"}})
	for _, f := range []string{"currency", "max_boxes", "exchange_rates[0].rate"} {
		add("settings", f, errs)
	}
	_, errs = readScenarioForm(url.Values{"scenarios[0].monthly_requests": {"many"}, "scenarios[0].busy_hour_kind": {"peak_rate"}, "scenarios[0].busy_hour": {"fast"}})
	add("scenarios", "scenarios[0].monthly_requests", errs)
	add("scenarios", "scenarios[0].busy_hour", errs)
	_, errs = readScenarioForm(url.Values{"scenarios[1].monthly_requests": {"80000"}, "scenarios[1].busy_hour": {"0.1"}, "scenarios[1].burst": {"lots"}})
	add("scenarios", "scenarios[1].burst", errs)
	_, errs = readReferenceRow(url.Values{"reference.isl": {"1k"}, "reference.intvty": {"n/a"}})
	add("reference row", "reference.isl", errs)
	add("reference row", "reference.intvty", errs)
	_, errs = readQuoteForm(url.Values{"currency": {"EU"}, "evidence_date": {"soon"}, "quote.tiers[0].from_m_tokens": {"ten"}})
	for _, f := range []string{"currency", "evidence_date", "quote.tiers[0].from_m_tokens"} {
		add("quote", f, errs)
	}
	_, errs = readProviderForm(url.Values{"provider.evidence_date": {"2026-13-45"}})
	add("provider", "provider.evidence_date", errs)
	_, errs = readRecommendationForm(url.Values{"gates[0].verdict": {"maybe"}})
	add("recommendation", "gates[0].verdict", errs)
	_, errs = readFleetForm(url.Values{"fleet.topology": {"replicas"}, "fleet.tp_degree": {"2.5"}, "fleet.scaling": {"n/a"}})
	add("fleet", "fleet.tp_degree", errs)
	add("fleet", "fleet.scaling", errs)
	r := newFormReader(url.Values{"replicas": {"two"}, "headroom": {"lots"}})
	r.integer("replicas")
	r.percent("headroom")
	add("row figures", "replicas", r.errs)
	add("row figures", "headroom", r.errs)

	for _, c := range cases {
		msg, ok := c.errs[c.field]
		switch {
		case !ok:
			t.Errorf("%s: %s not refused; refusals: %v", c.form, c.field, c.errs)
		case !oneWording.MatchString(msg):
			t.Errorf("%s: %s refused as %q, not as `must be …; got \"…\"`", c.form, c.field, msg)
		}
	}
}

// The reader reads numbers as people type them and keeps the first
// refusal of a field.
func TestFormReaderReadsTypedNumbers(t *testing.T) {
	r := newFormReader(url.Values{"a": {"80,000"}, "b": {"1.250,50"}, "c": {"12,5 %"}, "d": {" "}, "e": {"x"}})
	if n := r.integer("a"); n == nil || *n != 80000 {
		t.Errorf("80,000 read as %v", n)
	}
	if f := r.float("b"); f == nil || *f != 1250.5 {
		t.Errorf("1.250,50 read as %v", f)
	}
	if p := r.percent("c"); p == nil || *p != 0.125 {
		t.Errorf("12,5 %% read as %v", p)
	}
	if r.float("d") != nil || r.failed("d") {
		t.Error("a blank field is absent, not refused")
	}
	r.integer("e")
	r.refuse("e", "second")
	if got := r.errs["e"]; got != `must be a whole number; got "x"` {
		t.Errorf("first refusal not kept: %q", got)
	}
}
