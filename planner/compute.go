package planner

import (
	"fmt"
	"sort"
	"strings"
)

// Result is the computed report: every number any screen, the JSON API or
// the XLSX export shows. It is produced once by Compute from Inputs; the
// renderers never compute figures of their own.
type Result struct {
	Currency string `json:"currency"`
	AsOf     string `json:"as_of"`
	// Rounding states how displayed amounts are rounded.
	Rounding string `json:"rounding"`
	// Problems are the refused inputs (Compute still computes what it can).
	Problems FieldErrors `json:"problems"`

	// Objective is the objective in force after the amendments, and
	// ObjectiveText it in the objective syntax.
	Objective     Objective `json:"objective"`
	ObjectiveText string    `json:"objective_text"`
	// Interactivity is the TPOT bound both ways, as a TPOT and as an
	// output speed per user (Objective.Interactivity); "" without one.
	Interactivity string `json:"interactivity,omitempty"`
	// ObjectiveLoosened is true when an amendment loosened the objective
	// after results existed; Loosening names each loosened term.
	ObjectiveLoosened bool     `json:"objective_loosened"`
	Loosening         []string `json:"loosening"`
	// AmendedAfterResults names each change of the workload, or of the
	// objective short of a loosening (which ObjectiveLoosened covers), from
	// what was in force when results first existed to what is in force
	// now; AmendedTerms is the workload and objective in force, the text a
	// reviewer's acceptance names. Empty when nothing differs (restoring
	// the terms clears it).
	AmendedAfterResults []string          `json:"amended_after_results"`
	AmendedTerms        string            `json:"amended_terms,omitempty"`
	Amendments          []AmendmentResult `json:"amendments"`

	// Matrix is the rows ordered by load, each with its verdict.
	Matrix []RowResult `json:"matrix"`
	// ContractWarnings are matrix-wide findings (e.g. rows of several load
	// kinds, duplicate loads).
	ContractWarnings []Warning      `json:"contract_warnings"`
	Envelope         Envelope       `json:"envelope"`
	Admission        Admission      `json:"admission"`
	Overload         OverloadResult `json:"overload"`

	Candidates Comparison `json:"candidates"`
	Residency  Residency  `json:"residency"`

	SelfHosted SelfHostedCost   `json:"self_hosted"`
	Quotes     []QuoteCost      `json:"quotes"`
	Capacity   Capacity         `json:"capacity"`
	Scenarios  []ScenarioResult `json:"scenarios"`
	Crossovers []Crossover      `json:"crossovers"`
	Chart      CostChart        `json:"chart"`
	// Frontier is the box's frontier-comparable cost per million tokens
	// and its gap to the all-in figure per scenario.
	Frontier Frontier `json:"frontier"`
	// TaxBasis is how tax is counted in the comparison: "net" (recoverable
	// tax left out) or "gross".
	TaxBasis string `json:"tax_basis"`
	// ExchangeRates are the rates the report converts with, as entered.
	ExchangeRates []ExchangeRate `json:"exchange_rates"`
	// Provider is the seller's view of the box; nil when the report has no
	// selling prices.
	Provider *ProviderView `json:"provider"`
	// Fleet is the sizing beyond one box (docs/method.md, "Fleets and the
	// reserve"); nil when the report sizes one box at a time.
	Fleet *Fleet `json:"fleet,omitempty"`

	// Evidence lists every typed cost Figure with its age; Stale counts
	// the stale or undated ones.
	Evidence       []Evidence `json:"evidence"`
	StaleAfterDays int        `json:"stale_after_days"`
	Stale          int        `json:"stale"`

	Recommendation *Recommendation `json:"recommendation"`
	// RecommendationWarnings question the decision without blocking it:
	// "keep" while a non-financial gate fails, or while an API is cheaper
	// per 1,000 in the expected scenario.
	RecommendationWarnings []string `json:"recommendation_warnings"`

	ExitCheck []ExitItem `json:"exit_check"`
	ExitPass  bool       `json:"exit_pass"`

	// Headline is the three answers and the decision, made from the rest
	// of the result (BuildHeadline).
	Headline Headline `json:"headline"`
	// Path is the steps of writing the report, each done or not, and the
	// next one (BuildPath).
	Path Path `json:"path"`

	// Operations evidence (evidence.go): the GPU log, the soak, the
	// showback meters of a shared box (each meter's tenant shares as
	// fractions; ShowbackDetail adds costs, gaps and notes) and demand
	// from production.
	Telemetry      TelemetrySummary `json:"telemetry"`
	Soak           SoakResult       `json:"soak"`
	Showback       []MeterShares    `json:"showback"`
	ShowbackDetail *Showback        `json:"showback_detail"`
	Demand         *Demand          `json:"demand"`

	// Reference is the public frontier rows matched to the report and the
	// counted rows' ratio to it (reference.go); nil without reference
	// rows. Nothing else in the Result reads it but the headline's
	// Reference and the plan's exit item.
	Reference *ReferenceResult `json:"reference,omitempty"`
}

// AmendmentResult is one amendment as the report shows it, with whether it
// loosened the objective and whether that happened after results existed.
type AmendmentResult struct {
	Amendment Amendment `json:"amendment"`
	Loosened  bool      `json:"loosened"`
	// LoosenedAfterResults is the flag every reader must see.
	LoosenedAfterResults bool     `json:"loosened_after_results"`
	Details              []string `json:"details"`
}

// DefaultStaleAfterDays is the evidence age at which an input is stale.
const DefaultStaleAfterDays = 90

// Compute produces the report from its inputs. It never fails: refused
// inputs are listed in Result.Problems and the parts they feed are left
// empty or marked, while everything else is still computed.
func Compute(in Inputs) Result {
	r := Result{
		Currency:       in.Currency,
		AsOf:           in.AsOf,
		Rounding:       RoundingRule,
		StaleAfterDays: in.StaleAfterDays,
		Recommendation: in.Recommendation,
	}
	if r.StaleAfterDays == 0 {
		r.StaleAfterDays = DefaultStaleAfterDays
	}
	if err := in.Validate(); err != nil {
		r.Problems = err.(FieldErrors)
	}

	// The objective in force, and whether it was loosened after results.
	obj := r.objectiveInForce(in)
	r.workloadAmended(in)
	c := in.Contract
	c.Objective = obj

	// Matrix, envelope, admission, overload.
	// Every section reads a row's power and memory through Row.Measured
	// on these rows (docs/method.md, "Measured figures of a row").
	rows := ResolveRows(in.Rows, in.Telemetry, c.DeviceMemoryGiB)
	r.Matrix, r.Envelope = JudgeMatrix(rows, c, obj, c.BaselineModel)
	r.measuredSources(in)
	r.ContractWarnings = append(r.ContractWarnings, matrixWarnings(r.Matrix, c)...)
	r.Admission = ProposeAdmission(r.Matrix, r.Envelope, obj, c, in.Admission)
	r.Overload = JudgeOverload(in.Overload)

	// Candidates and residency.
	r.Candidates = CompareCandidates(resolveCandidates(in.Candidates, in.Telemetry, c.DeviceMemoryGiB), rows, c, obj)
	r.Residency = CheckResidency(in.Routes, c.DeviceMemoryGiB, obj)

	// Costs.
	var ceil *RowResult
	if r.Envelope.CeilingRow != nil {
		ceil = &r.Matrix[*r.Envelope.CeilingRow]
	}
	var watts *float64
	wattsSource := ""
	if ceil != nil {
		watts, wattsSource = ceil.PowerWattsMean, ceil.PowerWattsSource
	}
	// Money in other currencies is converted with the report's dated
	// rates; tax is counted on the report's basis.
	conv := newConverter(in.Currency, in.ExchangeRates)
	r.TaxBasis = in.TaxBasis
	if r.TaxBasis == "" {
		r.TaxBasis = TaxNet
	}
	r.ExchangeRates = in.ExchangeRates
	// Power by use reads the box's measured service, the closed-loop
	// ceiling's in-objective rate (docs/method.md, "Power by use").
	closed := PerBoxCapacity(r.Matrix, r.Envelope, max(1, in.MaxBoxes), obj)
	pw := &powerInputs{serviceRate: closed.PerBoxRate, busyFromLog: watts != nil && strings.HasPrefix(wattsSource, "telemetry:")}
	pw.logIdleWatts, pw.logIdleText = idlePowerText(in.Telemetry)
	r.SelfHosted = selfHostedMonthly(in.SelfHosted, watts, conv, r.TaxBasis, pw)
	if watts != nil {
		r.SelfHosted.PowerWattsSource = "measured at the ceiling row (" + wattsSource + ")"
	}
	inTok, outTok, basis, note := tokensPerRequest(in, ceil)
	var compared []QuoteCost
	for _, q := range in.Quotes {
		qc := quoteMonthly(q, inTok, outTok, basis, conv, r.TaxBasis)
		if note != "" {
			qc.Notes = append(qc.Notes, note)
		}
		r.Quotes = append(r.Quotes, qc)
		if qc.Excluded == "" {
			compared = append(compared, qc)
		}
	}
	r.Capacity = PerBoxCapacity(r.Matrix, r.Envelope, max(1, in.MaxBoxes), obj)
	burst, burstSrc := sizingBurst(in)
	q, why := SizeWithArrivals(ceil, r.Admission, obj, refusedTarget(c), burst, burstSrc)
	r.Capacity.withArrivals(q, why)
	costSource(&r.Capacity, c.BaselineModel, r.Candidates)
	r.Fleet = BuildFleet(in.Fleet, r.Matrix, r.Admission, max(1, in.MaxBoxes))
	r.Capacity.Fleet = r.Fleet

	// Scenarios, crossover and the chart, over the quotes that can be
	// compared (a quote in a currency without a rate is left out).
	for _, s := range in.Scenarios {
		sr := CostScenario(s, r.Capacity, r.SelfHosted, compared)
		if sr.BoxesNeeded != nil && r.Capacity.Queue != nil {
			n := *sr.BoxesNeeded
			if sr.Sizing != nil {
				n = sr.Sizing.Serving
			}
			b, _ := scenarioBurst(s, in)
			sr.Queue = simulateScenario(r.Capacity.Queue, sr.BusyHourRate, n, b)
		}
		if sr.BoxesNeeded != nil {
			n := *sr.BoxesNeeded
			if sr.Sizing != nil {
				n = sr.Sizing.Serving
			}
			sr.Hybrid = BuildHybrid(s, r.Capacity, r.SelfHosted, compared, in.Demand, n)
		}
		r.Scenarios = append(r.Scenarios, sr)
	}
	tokenCosts(r.Scenarios, inTok, outTok)
	r.Frontier = BuildFrontier(in.SelfHosted, c.Device, r.SelfHosted, r.Capacity, r.Scenarios, inTok, outTok, conv)
	share := sizingShare(in.Scenarios)
	for _, q := range compared {
		r.Crossovers = append(r.Crossovers, FindCrossover(r.SelfHosted, q, r.Capacity, share))
	}
	r.Chart = BuildChart(in.Currency, r.SelfHosted, compared, r.Crossovers, r.Scenarios, r.Capacity, share)
	if in.Provider != nil {
		pv := providerMonthly(*in.Provider, r.SelfHosted, r.Capacity, inTok, outTok, basis, conv, in.Currency)
		r.Provider = &pv
	}
	r.Problems = append(r.Problems, conv.problems()...)

	// Evidence ages.
	r.ageAll(in)

	r.RecommendationWarnings = recommendationWarnings(in.Recommendation, r.Scenarios, in.Currency)

	r.evidence(in)
	r.Reference = CompareReference(in, &r)
	r.ExitCheck = ExitCheck(in, &r)
	if it, ok := SoakExitItem(c, r.Soak); ok {
		r.ExitCheck = append(r.ExitCheck, it)
	}
	r.ExitPass = true
	for _, it := range r.ExitCheck {
		r.ExitPass = r.ExitPass && it.Pass
	}
	r.emptyLists()
	r.Headline = BuildHeadline(in, &r)
	r.Path = BuildPath(in, &r)
	return r
}

// emptyLists makes the top-level lists empty rather than nil, so the JSON
// API always serves arrays.
func (r *Result) emptyLists() {
	if r.Problems == nil {
		r.Problems = FieldErrors{}
	}
	r.Loosening = nonNil(r.Loosening)
	r.AmendedAfterResults = nonNil(r.AmendedAfterResults)
	r.Amendments = nonNil(r.Amendments)
	r.Matrix = nonNil(r.Matrix)
	r.ContractWarnings = nonNil(r.ContractWarnings)
	r.Quotes = nonNil(r.Quotes)
	r.Scenarios = nonNil(r.Scenarios)
	r.Crossovers = nonNil(r.Crossovers)
	r.Evidence = nonNil(r.Evidence)
	r.ExchangeRates = nonNil(r.ExchangeRates)
	r.RecommendationWarnings = nonNil(r.RecommendationWarnings)
	r.Admission.Reasons = nonNil(r.Admission.Reasons)
	r.Admission.WeakEvidence = nonNil(r.Admission.WeakEvidence)
	r.Admission.Settings.GatewayNotes = nonNil(r.Admission.Settings.GatewayNotes)
	r.Envelope.NonMonotone = nonNil(r.Envelope.NonMonotone)
	r.Candidates.Candidates = nonNil(r.Candidates.Candidates)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// objectiveInForce takes the contract's objective (the contract as it
// stands, amendments applied) and records, for each objective amendment,
// whether it loosened the objective and whether results existed then. An
// amendment's old value is compared when it parses, else the value before
// it. The report is marked loosened when the objective in force is looser
// than the one in force when results first existed (the old value of the
// first objective amendment made after results): restoring that objective
// clears the mark, while each amendment keeps its own record.
func (r *Result) objectiveInForce(in Inputs) Objective {
	cur := in.Contract.Objective
	var prev, atResults *Objective
	var lastLoose *Amendment
	last := ""
	for i, a := range in.Amendments {
		ar := AmendmentResult{Amendment: a}
		if a.Field == "objective" {
			last = a.NewValue
			next, err := ParseObjective(a.NewValue)
			if err != nil {
				ar.Details = append(ar.Details, "new value unreadable: "+err.Error())
			} else {
				old, err := ParseObjective(a.OldValue)
				switch {
				case err == nil:
				case prev != nil:
					old = *prev
				default:
					old = next // nothing to compare with
					ar.Details = append(ar.Details, "old value unreadable: "+err.Error())
				}
				if a.ResultsExisted && atResults == nil {
					o := old
					atResults = &o
				}
				loose, details := Loosened(old, next)
				ar.Loosened = loose
				ar.Details = append(ar.Details, details...)
				if loose && a.ResultsExisted {
					ar.LoosenedAfterResults = true
					lastLoose = &in.Amendments[i]
				}
				prev = &next
			}
		}
		r.Amendments = append(r.Amendments, ar)
	}
	if atResults != nil {
		if loose, details := Loosened(*atResults, cur); loose {
			r.ObjectiveLoosened = true
			by := ""
			if lastLoose != nil {
				by = fmt.Sprintf(" (by %s on %s, after results existed: %s)", orNone(lastLoose.Who), orNone(lastLoose.When), orNone(lastLoose.Reason))
			}
			for _, d := range details {
				r.Loosening = append(r.Loosening, d+by)
			}
		}
	}
	if atResults != nil && !r.ObjectiveLoosened && atResults.String() != cur.String() {
		r.AmendedAfterResults = append(r.AmendedAfterResults, fmt.Sprintf("objective: changed from %s to %s%s", atResults.String(), cur.String(), lastBy(in.Amendments, "objective")))
	}
	r.Objective = cur
	r.ObjectiveText = cur.String()
	r.Interactivity = cur.Interactivity()
	if last != "" && last != r.ObjectiveText {
		r.ContractWarnings = append(r.ContractWarnings, Warning{Code: "objective-amendment-mismatch", Message: fmt.Sprintf("the contract's objective %q is not the last amendment's %q: the contract's is in force", r.ObjectiveText, last)})
	}
	return cur
}

// workloadAmended records, in AmendedAfterResults, a workload in force
// other than the one in force when results first existed (the old value of
// the first workload amendment made after results), and sets
// AmendedTerms when anything was amended after results. Amendments record
// the workload with its tolerance (Workload.Terms); one recorded before
// they did holds it without, and is compared so.
func (r *Result) workloadAmended(in Inputs) {
	w := in.Contract.Workload
	for _, a := range in.Amendments {
		if a.Field != "workload" || !a.ResultsExisted {
			continue
		}
		if a.OldValue != w.Terms() && a.OldValue != w.String() {
			r.AmendedAfterResults = append(r.AmendedAfterResults, fmt.Sprintf("workload: changed from %s to %s%s", a.OldValue, w.Terms(), lastBy(in.Amendments, "workload")))
		}
		break
	}
	if len(r.AmendedAfterResults) > 0 {
		r.AmendedTerms = AmendedTerms(in.Contract.Workload, r.ObjectiveText)
	}
}

// AmendedTerms is the text a reviewer's acceptance of an amendment after
// results names: the workload and the objective in force.
func AmendedTerms(w Workload, objective string) string {
	return "workload " + w.Terms() + "; objective " + objective
}

// lastBy attributes the last amendment of a field made after results: "
// (by A. Lead on 2026-11-20: reason)".
func lastBy(as []Amendment, field string) string {
	for i := len(as) - 1; i >= 0; i-- {
		if a := as[i]; a.Field == field && a.ResultsExisted {
			return fmt.Sprintf(" (by %s on %s: %s)", orNone(a.Who), orNone(a.When), orNone(a.Reason))
		}
	}
	return ""
}

// matrixWarnings are findings about the matrix as a whole. Loads are
// compared within one load kind: a rate row at 10 req/s and a concurrency
// row at 10 streams are different levels.
func matrixWarnings(m []RowResult, c Contract) []Warning {
	type level struct {
		kind LoadKind
		load float64
	}
	var ws []Warning
	var order []level
	// Duplicates are a matter for the rows that count: a row left out
	// (another model, another load kind) says why on its own. Rows of
	// one load kind only count (JudgeMatrix), so the counted rows never
	// mix kinds and no warning says so.
	counted := map[level]int{}
	for _, rr := range m {
		k := normKind(rr.Row.LoadKind)
		if !rr.LoadKnown {
			ws = append(ws, Warning{Code: "load-unknown", Message: fmt.Sprintf("row %d of %s has no known load and is left out of the envelope", rr.Row.Index, orNone(rr.Source.File))})
			continue
		}
		l := level{k, rr.Load}
		if !rr.Counted {
			continue
		}
		if counted[l] == 0 {
			order = append(order, l)
		}
		counted[l]++
	}
	// Every planned load no row has, in one warning.
	if missing := MissingPlannedLoads(m, c); len(missing) > 0 {
		ws = append(ws, Warning{Code: "planned-row-missing", Message: plannedMissingText(c.LoadKind, missing)})
	}
	for _, l := range order {
		if n := counted[l]; n > 1 {
			ws = append(ws, Warning{Code: "duplicate-load", Message: fmt.Sprintf("%d rows at load %s", n, loadText(l.kind, l.load))})
		}
	}
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].Code < ws[j].Code })
	return ws
}

// MissingPlannedLoads are the loads the contract plans that no row of
// the matrix m has (a row of another load kind than the contract's does
// not count), in the contract's order.
func MissingPlannedLoads(m []RowResult, c Contract) []float64 {
	var missing []float64
	for _, l := range c.Loads {
		found := false
		for _, rr := range m {
			found = found || (rr.LoadKnown && rr.Load == l && (c.LoadKind == "" || normKind(rr.Row.LoadKind) == normKind(c.LoadKind)))
		}
		if !found {
			missing = append(missing, l)
		}
	}
	return missing
}

// plannedMissingText says which planned loads no row has: "the contract
// plans load 4 concurrent streams but no row has it", or for several
// "the contract plans loads 12, 16 and 24 concurrent streams but no row
// has them".
func plannedMissingText(kind LoadKind, loads []float64) string {
	if len(loads) == 1 {
		what := fmtNum(loads[0])
		if kind != "" {
			what = loadText(kind, loads[0])
		}
		return fmt.Sprintf("the contract plans load %s but no row has it", what)
	}
	nums := make([]string, len(loads))
	for i, l := range loads {
		nums[i] = fmtNum(l)
	}
	list := strings.Join(nums[:len(nums)-1], ", ") + " and " + nums[len(nums)-1]
	switch normKind(kind) {
	case LoadRate:
		list += " req/s"
	case LoadConcurrency:
		if kind != "" {
			list += " concurrent streams"
		}
	}
	return fmt.Sprintf("the contract plans loads %s but no row has them", list)
}

// tokensPerRequest chooses the tokens priced for API quotes.
func tokensPerRequest(in Inputs, ceil *RowResult) (inTok, outTok float64, basis, note string) {
	w := in.Contract.Workload
	if in.TokenBasis == "measured" {
		if ceil != nil && ceil.Row.PromptTokensMean != nil && ceil.Row.OutputTokensMean != nil {
			return *ceil.Row.PromptTokensMean, *ceil.Row.OutputTokensMean, "measured", ""
		}
		note = "measured token means unavailable at the ceiling row: the contract's workload is priced"
	}
	return float64(w.PromptTokens), float64(w.OutputTokens), "contract", note
}

// refusedTarget is the contract's refused share, or the default.
func refusedTarget(c Contract) float64 {
	if c.RefusedTarget != nil && *c.RefusedTarget > 0 {
		return *c.RefusedTarget
	}
	return DefaultRefusedTarget
}

// scenarioBurst is a scenario's burst factor: typed, else from imported
// per-minute production traffic, else 1 (Poisson), with where it came
// from.
func scenarioBurst(s Scenario, in Inputs) (float64, string) {
	switch {
	case s.Burst >= 1:
		return s.Burst, "typed"
	case in.Demand != nil && in.Demand.Burst != nil && *in.Demand.Burst > 1:
		return *in.Demand.Burst, "from production traffic: " + in.Demand.BurstBasis
	}
	return 1, "none: Poisson arrivals"
}

// sizingBurst is the burst factor of the scenario that sizes capacity
// (the expected one, else the first; sizingShare).
func sizingBurst(in Inputs) (float64, string) {
	for _, s := range in.Scenarios {
		if s.Name == "expected" {
			return scenarioBurst(s, in)
		}
	}
	if len(in.Scenarios) > 0 {
		return scenarioBurst(in.Scenarios[0], in)
	}
	return scenarioBurst(Scenario{}, in)
}

// sizingShare is the share of the month's requests in the busiest hour
// used to turn per-box capacity into monthly demand: the expected
// scenario's, else the first scenario's (Scenario.MonthShare, whichever
// way its busy hour was typed).
func sizingShare(ss []Scenario) float64 {
	for _, s := range ss {
		if s.Name == "expected" {
			return s.MonthShare()
		}
	}
	if len(ss) > 0 {
		return ss[0].MonthShare()
	}
	return 0
}

// ageAll ages every piece of cost evidence and lists it in Result.Evidence.
func (r *Result) ageAll(in Inputs) {
	age := func(es []Evidence) {
		for i := range es {
			ageEvidence(&es[i], in.AsOf, r.StaleAfterDays)
			r.Evidence = append(r.Evidence, es[i])
		}
	}
	for i := range r.SelfHosted.Lines {
		age(r.SelfHosted.Lines[i].Evidence)
	}
	age(ev("self_hosted.gpus_per_box", in.SelfHosted.GPUsPerBox))
	age(ev("self_hosted.gpu_hour_price", in.SelfHosted.GPUHourPrice))
	for _, x := range in.ExchangeRates {
		age(ev(fmt.Sprintf("exchange_rates[%s].rate", x.Currency), x.Rate))
	}
	age(providerEvidence(in.Provider))
	for qi := range r.Quotes {
		age(quoteEvidence(in.Quotes[qi]))
		for i := range r.Quotes[qi].Lines {
			age(r.Quotes[qi].Lines[i].Evidence)
		}
	}
	for _, e := range r.Evidence {
		if e.Stale {
			r.Stale++
		}
	}
}
