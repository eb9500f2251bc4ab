package planner

import (
	"fmt"
	"math"
	"time"
)

// DateLayout is the layout of every date in the inputs, YYYY-MM-DD.
const DateLayout = "2006-01-02"

// Validate checks every input and returns FieldErrors naming each refused
// field, or nil. Negative amounts, fractions out of range, malformed dates,
// an override without a reason and untyped labour are refused.
func (in Inputs) Validate() error {
	var es FieldErrors
	if in.Currency == "" {
		es.add("currency", "required, e.g. EUR")
	} else {
		checkCurrency(&es, "currency", in.Currency)
	}
	validateRates(&es, in.Currency, in.ExchangeRates)
	switch in.TaxBasis {
	case "", TaxNet, TaxGross:
	default:
		es.add("tax_basis", fmt.Sprintf("want net (recoverable tax left out) or gross, got %q", in.TaxBasis))
	}
	if in.Provider != nil {
		in.Provider.validate(&es, "provider")
	}
	checkDate(&es, "as_of", in.AsOf, false)
	if in.StaleAfterDays < 0 {
		es.add("stale_after_days", "must not be negative")
	}
	// An objective nobody has typed yet is "not written", which the exit
	// check reports; it is not a refused input.
	if !in.Contract.Objective.Empty() {
		if err := in.Contract.Objective.Validate(); err != nil {
			es = append(es, err.(FieldErrors)...)
		}
	}
	checkDate(&es, "contract.test_date", in.Contract.TestDate, false)
	in.Admission.validate(&es)
	if in.Overload != nil {
		switch in.Overload.Outcome {
		case "", OverloadRejected429, OverloadBoundedQueue, OverloadOther:
		default:
			es.add("overload.outcome", fmt.Sprintf("want %s, %s or %s, got %q", OverloadRejected429, OverloadBoundedQueue, OverloadOther, in.Overload.Outcome))
		}
	}
	for i, c := range in.Candidates {
		p := fmt.Sprintf("candidates[%d]", i)
		if c.Name == "" {
			es.add(p+".name", "required")
		}
		if c.Gate != nil {
			checkDate(&es, p+".gate.date", c.Gate.Date, false)
		}
	}
	for i, r := range in.Routes {
		p := fmt.Sprintf("routes[%d]", i)
		if r.Residency != "resident" && r.Residency != "switched" {
			es.add(p+".residency", fmt.Sprintf("want resident or switched, got %q", r.Residency))
		}
		if r.MemoryBudgetGiB != nil && *r.MemoryBudgetGiB < 0 {
			es.add(p+".memory_budget_gib", "must not be negative")
		}
	}
	in.SelfHosted.validate(&es, "self_hosted")
	names := map[string]bool{}
	for i, q := range in.Quotes {
		p := fmt.Sprintf("quotes[%d]", i)
		q.validate(&es, p)
		if names[q.Name] {
			es.add(p+".name", fmt.Sprintf("quote %q named twice", q.Name))
		}
		names[q.Name] = true
	}
	switch in.TokenBasis {
	case "", "contract", "measured":
	default:
		es.add("token_basis", fmt.Sprintf("want contract or measured, got %q", in.TokenBasis))
	}
	if in.MaxBoxes < 0 {
		es.add("max_boxes", "must not be negative")
	}
	if in.Fleet != nil {
		es = append(es, in.Fleet.Validate()...)
	}
	for i, s := range in.Scenarios {
		s.validate(&es, fmt.Sprintf("scenarios[%d]", i))
	}
	if r := in.Recommendation; r != nil {
		switch r.Decision {
		case "", "keep", "change", "stop":
		default:
			es.add("recommendation.decision", fmt.Sprintf("want keep, change or stop, got %q", r.Decision))
		}
		checkDate(&es, "recommendation.review_date", r.ReviewDate, false)
		checkDate(&es, "recommendation.expiry", r.Expiry, false)
		rd, err1 := time.Parse(DateLayout, r.ReviewDate)
		ex, err2 := time.Parse(DateLayout, r.Expiry)
		if err1 == nil && err2 == nil && !ex.After(rd) {
			es.add("recommendation.expiry", fmt.Sprintf("must be after the review date %s, got %s", r.ReviewDate, r.Expiry))
		}
	}
	return es.err()
}

func (a AdmissionInput) validate(es *FieldErrors) {
	if a.OverrideMaxInFlight != nil {
		if *a.OverrideMaxInFlight < 1 {
			es.add("admission.override_max_in_flight", "must be at least 1")
		}
		if a.OverrideReason == "" {
			es.add("admission.override_reason", "an override of max in flight needs a reason")
		}
	}
	if a.QueueSize != nil && *a.QueueSize < 0 {
		es.add("admission.queue_size", "must not be negative")
	}
	if a.MaxQueueAgeS != nil && !(*a.MaxQueueAgeS > 0) {
		es.add("admission.max_queue_age_s", "must be positive")
	}
	if a.RetryAfterS != nil && *a.RetryAfterS < 1 {
		es.add("admission.retry_after_s", "must be at least 1")
	}
	if a.ClientMaxRetries != nil && (*a.ClientMaxRetries < 0 || *a.ClientMaxRetries > 5) {
		es.add("admission.client_max_retries", "must be between 0 and 5: retries multiply overload")
	}
}

// Validate checks the self-hosted cost inputs; field names start "self_hosted".
func (s SelfHostedCosts) Validate() error {
	var es FieldErrors
	s.validate(&es, "self_hosted")
	return es.err()
}

func (s SelfHostedCosts) validate(es *FieldErrors, p string) {
	s.validateEquipment(es, p)
	checkDate(es, p+".evidence_date", s.EvidenceDate, false)
	for cat, t := range s.Taxes {
		if !isTaxLine(cat) {
			es.add(p+".taxes."+cat, fmt.Sprintf("no cost line %q to tax", cat))
			continue
		}
		validateTax(es, p+".taxes."+cat, t)
	}
	validateFields(es, p, &s, SelfHostedFields)
}

// Validate checks one quote; field names start "quote".
func (q Quote) Validate() error {
	var es FieldErrors
	q.validate(&es, "quote")
	return es.err()
}

func (q Quote) validate(es *FieldErrors, p string) {
	if q.Name == "" {
		es.add(p+".name", "required")
	}
	validateFields(es, p, &q, QuoteFields)
	q.validatePricing(es, p)
}

// Validate checks one scenario; field names start "scenario".
func (s Scenario) Validate() error {
	var es FieldErrors
	s.validate(&es, "scenario")
	return es.err()
}

func (s Scenario) validate(es *FieldErrors, p string) {
	if s.Name == "" {
		es.add(p+".name", "required")
	}
	if s.MonthlyRequests < 0 {
		es.add(p+".monthly_requests", fmt.Sprintf("must not be negative, got %d", s.MonthlyRequests))
	}
	switch s.BusyHourKind {
	case "", BusyMonthShare, BusyDayShare:
		if !(s.BusyHourShare > 0 && s.BusyHourShare <= 1) {
			es.add(p+".busy_hour_share", fmt.Sprintf("a fraction above 0 and at most 1 (0.1 = 10 %%), got %s", fmtNum(s.BusyHourShare)))
		}
	case BusyPeakRate:
		if !(s.PeakRate > 0) || math.IsInf(s.PeakRate, 0) {
			es.add(p+".peak_rate", fmt.Sprintf("a request rate above 0 req/s, got %s", fmtNum(s.PeakRate)))
		}
	default:
		es.add(p+".busy_hour_kind", fmt.Sprintf("must be %s, %s or %s, got %q", BusyDayShare, BusyPeakRate, BusyMonthShare, s.BusyHourKind))
	}
	if s.Burst != 0 && !(s.Burst >= 1 && !math.IsInf(s.Burst, 0)) {
		es.add(p+".burst", fmt.Sprintf("the busiest minute's rate over the busy hour's mean: 1 or more (1.5 = minutes half again as busy), or blank; got %s", fmtNum(s.Burst)))
	}
	if s.DayProfile != nil {
		if len(s.DayProfile) != 24 {
			es.add(p+".day_profile", fmt.Sprintf("24 hourly weights, one per clock hour; got %d", len(s.DayProfile)))
		} else if _, err := checkProfile(s.DayProfile); err != nil {
			es.add(p+".day_profile", err.Error())
		}
	}
}

func checkFigure(es *FieldErrors, field string, f *Figure) {
	if f == nil {
		return
	}
	if f.Amount.IsNegative() {
		es.add(field, fmt.Sprintf("must not be negative, got %s", f.Amount))
	}
	checkDate(es, field+".evidence_date", f.EvidenceDate, false)
	checkCurrency(es, field+".currency", f.Currency)
}

// checkDate refuses a malformed date (and an empty one when required).
func checkDate(es *FieldErrors, field, v string, required bool) {
	if v == "" {
		if required {
			es.add(field, "required (YYYY-MM-DD)")
		}
		return
	}
	if _, err := time.Parse(DateLayout, v); err != nil {
		es.add(field, fmt.Sprintf("want a date YYYY-MM-DD, got %q", v))
	}
}

// ageEvidence judges one piece of cost evidence (docs/method.md, "Dated
// evidence"): a price, a quote, an exchange rate or a typed cost is
// evidence of today's cost, so it is judged against the report's date,
// never the load test's: it fails (Stale) when it has no readable date,
// when it is dated after the report's date (Future: a rate from the future
// converts nothing), or when it is older than staleAfter days on the
// report's date. A catalogue quote retrieved today passes.
func ageEvidence(e *Evidence, asOf string, staleAfter int) {
	if e.EvidenceDate == "" {
		e.Stale = true
		e.Problem = "no evidence date"
		return
	}
	d, err := time.Parse(DateLayout, e.EvidenceDate)
	if err != nil {
		e.Stale = true
		e.Problem = "malformed evidence date"
		return
	}
	a, err := time.Parse(DateLayout, asOf)
	if err != nil {
		if e.Problem == "" {
			e.Problem = "no report date to age the evidence against"
		}
		return
	}
	days := int(a.Sub(d).Hours() / 24)
	e.AgeDays = &days
	limit, by := staleAfter, ""
	if e.StaleAfterDays > 0 && e.StaleAfterDays < staleAfter {
		limit, by = e.StaleAfterDays, e.StaleBy
	}
	switch {
	case days < 0:
		e.Stale, e.Future = true, true
		e.Problem = "dated after the report date " + asOf
	case days > limit:
		e.Stale = true
		e.Problem = fmt.Sprintf("%d days old, older than %d days", days, limit)
		if by != "" {
			e.Problem += " (" + by + ")"
		}
	}
}

// FutureEvidence refuses evidence dated after today (docs/method.md,
// "Dated evidence"): it returns FieldErrors naming each figure of figs
// (keyed by field) whose evidence date is after today, with its date, or
// nil. A save calls it with the day it happens.
func FutureEvidence(today string, figs map[string]*Figure) error {
	t, err := time.Parse(DateLayout, today)
	if err != nil {
		return nil
	}
	var es FieldErrors
	for field, f := range figs {
		if f == nil {
			continue
		}
		if d, err := time.Parse(DateLayout, f.EvidenceDate); err == nil && d.After(t) {
			es.add(field+".evidence_date", fmt.Sprintf("dated %s, after today (%s): evidence of a cost cannot come from the future", f.EvidenceDate, today))
		}
	}
	return es.err()
}

// RatesEvidence maps each exchange rate's field to its figure, for
// FutureEvidence.
func RatesEvidence(rates []ExchangeRate) map[string]*Figure {
	out := map[string]*Figure{}
	for i, x := range rates {
		out[fmt.Sprintf("exchange_rates[%d].rate", i)] = x.Rate
	}
	return out
}

// SelfHostedEvidence maps each self-hosted cost field to its figure, for
// FutureEvidence.
func SelfHostedEvidence(s SelfHostedCosts) map[string]*Figure {
	out := map[string]*Figure{}
	for _, f := range SelfHostedFields {
		if f.Figure != nil {
			out[f.Key()] = *f.Figure(&s)
		}
	}
	return out
}
