package planner

import (
	"fmt"
	"math"
	"strings"
)

// Headline is the report's three answers, first on the page, in the list
// of reports, in the JSON API and on the workbook's first sheet
// (docs/method.md, "Headline"): can the box serve us, what may it admit,
// is owning cheaper; then the decision and where its review stands. It is
// made from the computed Result alone (BuildHeadline), so every reader
// sees the same sentences. An answer that cannot be given yet says what is
// missing and which section takes it.
type Headline struct {
	Serve    HeadlineAnswer `json:"serve"`
	Admit    HeadlineAnswer `json:"admit"`
	Own      HeadlineAnswer `json:"own"`
	Decision HeadlineAnswer `json:"decision"`
	// Line is the headline in one line, for the list of reports.
	Line string `json:"line"`
	// Reference is the public frontier's word (reference.go): whether the
	// report is a plan and the ratio's sentence; nil without reference
	// rows.
	Reference *HeadlineReference `json:"reference,omitempty"`
}

// HeadlineReference is the headline's line about the public frontier.
type HeadlineReference struct {
	// Plan is true for a report of reference rows only: a plan, not
	// evidence, and not approvable.
	Plan bool   `json:"plan"`
	Text string `json:"text"`
}

// HeadlineAnswer is one answer of the headline.
type HeadlineAnswer struct {
	Question string `json:"question"`
	// Answered is true when the report gives the answer; Answer is then
	// the answer in a sentence, else what stands in its way.
	Answered bool   `json:"answered"`
	Answer   string `json:"answer"`
	// Yes and No are set on an answered yes-or-no question (can it serve
	// us, is owning cheaper); neither on one not answered or answered
	// with a figure.
	Yes bool `json:"yes,omitempty"`
	No  bool `json:"no,omitempty"`
	// Details are the figures behind the answer (one per scenario where
	// the answer is per scenario).
	Details []string `json:"details"`
	// Evidence is the section that holds the evidence (an anchor of the
	// report page: "envelope", "scenarios", ...).
	Evidence string `json:"evidence"`
	// Missing is what the answer still lacks, each with the section where
	// it is entered; an answered question may still lack evidence.
	Missing []Missing `json:"missing"`
}

// Missing is one thing the report lacks and the section that takes it:
// Section is its anchor on the report page, Where its name in words.
type Missing struct {
	What    string `json:"what"`
	Section string `json:"section"`
	Where   string `json:"where"`
	// Row is set when a row's own figures take it (RowNeed): the row's
	// key (RowKey), its form in the Section.
	Row string `json:"row,omitempty"`
}

// rowMissing is what the row figure need asks, pointing at the row.
func rowMissing(n *RowNeed) Missing {
	return Missing{What: n.Text, Section: "matrix", Row: n.Row, Where: "the figures of load " + n.Load}
}

// Workflow is where the report stands: whether its contract is frozen and
// where its review is. It moves no figure; the headline and the path say it.
type Workflow struct {
	Frozen bool `json:"frozen"`
	// State is WorkflowDraft, WorkflowInReview, WorkflowApproved or
	// WorkflowSentBack.
	State string `json:"state"`
	// By and At (YYYY-MM-DD) are who approved or sent back the report,
	// and when.
	By string `json:"by,omitempty"`
	At string `json:"at,omitempty"`
}

// The review states a Workflow names.
const (
	WorkflowDraft    = "draft"
	WorkflowInReview = "in_review"
	WorkflowApproved = "approved"
	WorkflowSentBack = "sent_back"
)

// Questions of the headline.
const (
	QuestionServe  = "Can it serve us?"
	QuestionAdmit  = "What may it admit?"
	QuestionOwn    = "Is owning cheaper?"
	QuestionDecide = "Recommendation and review"
)

// BuildHeadline answers the headline's questions from the computed report
// r (everything but the headline itself) and the workflow of in.
func BuildHeadline(in Inputs, r *Result) Headline {
	h := Headline{
		Serve:    headlineServe(in, r),
		Admit:    headlineAdmit(in, r),
		Own:      headlineOwn(in, r),
		Decision: headlineDecision(in, r),
	}
	h.Line = headlineLine(h, r)
	if rf := r.Reference; rf != nil {
		h.Reference = &HeadlineReference{Plan: rf.Plan, Text: rf.Text}
		if rf.Plan {
			h.Line = "Plan (public frontier only, not evidence) · " + h.Line
		}
	}
	for _, a := range []*HeadlineAnswer{&h.Serve, &h.Admit, &h.Own, &h.Decision} {
		a.Details = nonNil(a.Details)
		a.Missing = nonNil(a.Missing)
		for i := range a.Missing {
			if a.Missing[i].Where == "" {
				a.Missing[i].Where = SectionTitle(a.Missing[i].Section)
			}
		}
	}
	return h
}

// resultsMissing is what stands before any measured answer: a frozen
// contract with an objective, and imported rows.
func resultsMissing(in Inputs, r *Result) []Missing {
	var m []Missing
	if r.Objective.Empty() {
		m = append(m, Missing{What: "the service objective (the bounds a row must meet) is not written", Section: "contract"})
	}
	if in.Workflow != nil && !in.Workflow.Frozen {
		m = append(m, Missing{What: "the test contract is not frozen: freeze it before importing results", Section: "contract"})
	}
	if len(r.Matrix) == 0 {
		m = append(m, Missing{What: "no load-test results imported: import the benchmark files", Section: "imports"})
	}
	return m
}

func headlineServe(in Inputs, r *Result) HeadlineAnswer {
	a := HeadlineAnswer{Question: QuestionServe, Evidence: "envelope"}
	a.Missing = resultsMissing(in, r)
	need := FindRowNeed(r, in.Contract.DeviceMemoryGiB != nil)
	switch {
	case len(a.Missing) > 0:
	case r.Envelope.Ceiling == nil && need != nil:
		a.Missing = append(a.Missing, rowMissing(need))
	case r.Envelope.Ceiling == nil:
		a.Missing = append(a.Missing, Missing{What: "no demonstrated ceiling: " + r.Envelope.Text, Section: "matrix"})
	case need != nil:
		// The ceiling stands below a row not yet judged, or lacks what
		// the exit check wants recorded at it.
		a.Missing = append(a.Missing, rowMissing(need))
	}
	capa := r.Capacity
	if r.Envelope.Ceiling != nil {
		a.Details = append(a.Details, upperFirst(r.Envelope.Text)+".")
		if capa.PerBoxRate != nil {
			perBox := *capa.PerBoxRate
			bound := ""
			if capa.UpperBound {
				bound = "at most "
			}
			a.Details = append(a.Details, fmt.Sprintf("One box serves %s%s successful in-objective requests a second (%s an hour).",
				bound, fmtNum(perBox), DisplayCount(int64(math.Floor(perBox*3600)))))
			if q := capa.Queue; q != nil {
				a.Details = append(a.Details, fmt.Sprintf("That is with requests arriving at random: the closed-loop ceiling's %s req/s would leave users waiting in a queue; the objective holds up to %s of it.",
					fmtNum(q.ClosedLoopRate), DisplayShare(q.Utilisation)))
			} else if capa.QueueNote != "" {
				a.Details = append(a.Details, upperFirst(capa.QueueNote)+".")
			}
		} else if capa.Reason != "" {
			a.Missing = append(a.Missing, Missing{What: "capacity per box unknown: " + capa.Reason, Section: "matrix"})
		}
	}
	if len(r.Scenarios) == 0 {
		a.Missing = append(a.Missing, Missing{What: "no demand scenarios: enter low, expected and peak demand with their busiest hour", Section: "scenarios"})
	}
	plan := max(1, capa.MaxBoxes)
	var over []string
	known := len(r.Scenarios) > 0
	for _, s := range r.Scenarios {
		if s.BoxesNeeded == nil {
			known = false
			continue
		}
		n := *s.BoxesNeeded
		reserve := ""
		if z := s.Sizing; z != nil {
			reserve = fmt.Sprintf(" (%d serving + %d in reserve)", z.Serving, z.Reserve)
		}
		line := fmt.Sprintf("%s: busiest hour %s req/s, %d %s%s of the plan's %d", upperFirst(s.Scenario.Name), fmtNum(s.BusyHourRate), n, plural(n, "box", "boxes"), reserve, plan)
		if s.BeyondPlan(plan) {
			line = fmt.Sprintf("%s: busiest hour %s req/s needs %d boxes%s; the plan allows %d", upperFirst(s.Scenario.Name), fmtNum(s.BusyHourRate), n, reserve, plan)
			over = append(over, fmt.Sprintf("the %s scenario needs %d boxes", s.Scenario.Name, n))
		}
		a.Details = append(a.Details, line+".")
	}
	switch {
	case !known || capa.PerBoxRate == nil:
		a.Answer = "Not yet: " + firstMissing(a.Missing, "the capacity per box is not known") + "."
	case len(over) > 0:
		a.Answered, a.No = true, true
		a.Answer = fmt.Sprintf("No: %s; the plan allows %d.", strings.Join(over, ", "), plan)
	default:
		a.Answered, a.Yes = true, true
		a.Answer = fmt.Sprintf("Yes: every scenario fits the plan's %d %s.", plan, plural(plan, "box", "boxes"))
	}
	if a.Answered && r.Envelope.State == EnvelopeLowerBound {
		a.Answer += " The ceiling is a lower bound: every row passed."
	}
	return a
}

func headlineAdmit(in Inputs, r *Result) HeadlineAnswer {
	a := HeadlineAnswer{Question: QuestionAdmit, Evidence: "admission"}
	ad := r.Admission
	if ad.MaxInFlight == nil {
		a.Missing = firstOnly(resultsMissing(in, r))
		if len(a.Missing) == 0 {
			if need := FindRowNeed(r, in.Contract.DeviceMemoryGiB != nil); need != nil {
				a.Missing = append(a.Missing, rowMissing(need))
			} else {
				a.Missing = append(a.Missing, Missing{What: "no demonstrated ceiling to size the limit from: " + r.Envelope.Text, Section: "matrix"})
			}
		}
		a.Answer = "Not yet: " + firstMissing(a.Missing, "no admission limit") + "."
		return a
	}
	a.Answered = true
	if ad.QueueSize > 0 {
		a.Answer = fmt.Sprintf("Up to %d requests in flight, %d more waiting at most %s s; beyond that HTTP %d with Retry-After %s s.",
			*ad.MaxInFlight, ad.QueueSize, fmtNum(ad.MaxQueueAgeS), ad.OverloadStatus, fmtNum(float64(ad.RetryAfterS)))
	} else {
		a.Answer = fmt.Sprintf("Up to %d requests in flight, none waiting; beyond that HTTP %d with Retry-After %s s at once.",
			*ad.MaxInFlight, ad.OverloadStatus, fmtNum(float64(ad.RetryAfterS)))
	}
	if ad.WaitBudget != "" {
		a.Details = append(a.Details, upperFirst(ad.WaitBudget)+".")
	}
	if r.Fleet != nil {
		a.Details = append(a.Details, r.Fleet.AdmissionText)
	}
	if ad.Margin > 0 && !ad.Overridden {
		a.Details = append(a.Details, fmt.Sprintf("%s below the ceiling, for weak evidence.", DisplayShare(ad.Margin)))
	}
	if ad.ClientMaxRetries > 0 {
		a.Details = append(a.Details, fmt.Sprintf("Clients retry at most %d %s, backed off.", ad.ClientMaxRetries, plural(ad.ClientMaxRetries, "time", "times")))
	}
	switch {
	case !r.Overload.Recorded:
		a.Missing = append(a.Missing, Missing{What: "the overload test is not recorded: send load above the limit and record what came back", Section: "overload"})
	case !r.Overload.Pass:
		a.Missing = append(a.Missing, Missing{What: "the overload test did not show a bounded answer: " + strings.Join(r.Overload.Reasons, "; "), Section: "overload"})
	default:
		a.Details = append(a.Details, "The overload test answered as planned and the worker stayed healthy.")
	}
	return a
}

func headlineOwn(in Inputs, r *Result) HeadlineAnswer {
	a := HeadlineAnswer{Question: QuestionOwn, Evidence: "scenarios"}
	if r.Capacity.PerBoxRate == nil {
		m := firstOnly(resultsMissing(in, r))
		if len(m) == 0 {
			if need := FindRowNeed(r, in.Contract.DeviceMemoryGiB != nil); need != nil && r.Envelope.Ceiling == nil {
				m = append(m, rowMissing(need))
			} else {
				m = append(m, Missing{What: "capacity per box unknown, so the boxes to pay for are not known", Section: "matrix"})
			}
		}
		a.Missing = append(a.Missing, m...)
	}
	var untyped []string
	for _, l := range r.SelfHosted.Lines {
		if !l.Typed {
			untyped = append(untyped, strings.ToLower(l.Label))
		}
	}
	if len(untyped) > 0 {
		a.Missing = append(a.Missing, Missing{What: "self-hosted costs not typed (an untyped cost counts as zero): " + strings.Join(untyped, ", "), Section: "costs"})
	}
	if !r.SelfHosted.LabourTyped && len(untyped) == 0 {
		a.Missing = append(a.Missing, Missing{What: "operator labour not typed (hours a month and a loaded rate; zero is a stated choice)", Section: "costs"})
	}
	compared := 0
	for _, q := range r.Quotes {
		if q.Excluded == "" {
			compared++
		}
	}
	if compared == 0 {
		what := "no API quote to compare: finance adds quotes, a lead attaches them"
		if len(r.Quotes) > 0 {
			what = "no API quote can be compared: " + r.Quotes[0].Excluded
		}
		a.Missing = append(a.Missing, Missing{What: what, Section: "costs"})
	}
	if len(r.Scenarios) == 0 {
		a.Missing = append(a.Missing, Missing{What: "no demand scenarios: enter low, expected and peak demand", Section: "scenarios"})
	}
	var verdict string
	cheapestQuote := ""
	for _, s := range r.Scenarios {
		self, api := scenarioBest(s)
		if self == nil || api == nil {
			continue
		}
		cmp := "self-hosting cheaper"
		if !self.CostPer1000.Exact.LessThan(api.CostPer1000.Exact) {
			cmp = "the API cheaper"
			if self.CostPer1000.Exact.Equal(api.CostPer1000.Exact) {
				cmp = "the same"
			}
		}
		a.Details = append(a.Details, fmt.Sprintf("%s (%s requests a month): self-hosted %s, cheapest API (%s) %s per 1,000: %s.",
			upperFirst(s.Scenario.Name), DisplayCount(s.Scenario.MonthlyRequests), amountText(self.CostPer1000.Display(), r.Currency),
			api.Option, amountText(api.CostPer1000.Display(), r.Currency), cmp))
		if h := s.Hybrid; h != nil && h.Wins {
			a.Details = append(a.Details, fmt.Sprintf("%s: %s, against %s self-hosted and %s all-API.",
				upperFirst(s.Scenario.Name), h.Text, amountText(self.CostPer1000.Display(), r.Currency), amountText(api.CostPer1000.Display(), r.Currency)))
		}
		if s.Scenario.Name == "expected" {
			cheapestQuote = api.Option
			if h := s.Hybrid; h != nil && h.Wins {
				b := h.Options[h.Best]
				if b.CostPer1000 != nil && b.CostPer1000.Exact.LessThan(self.CostPer1000.Exact) && b.CostPer1000.Exact.LessThan(api.CostPer1000.Exact) {
					verdict = fmt.Sprintf("Partly: own %s and buy the peaks from %s: %s per 1,000 successful requests in the expected scenario, against %s all self-hosted and %s all-API.",
						boxes(b.Boxes), b.Quote, amountText(b.CostPer1000.Display(), r.Currency), amountText(self.CostPer1000.Display(), r.Currency), amountText(api.CostPer1000.Display(), r.Currency))
					continue
				}
			}
			switch {
			case self.CostPer1000.Exact.LessThan(api.CostPer1000.Exact):
				verdict = fmt.Sprintf("Yes: in the expected scenario self-hosting costs %s per 1,000 successful requests, the cheapest API (%s) %s.",
					amountText(self.CostPer1000.Display(), r.Currency), api.Option, amountText(api.CostPer1000.Display(), r.Currency))
			default:
				verdict = fmt.Sprintf("No: in the expected scenario the cheapest API (%s) costs %s per 1,000 successful requests, self-hosting %s.",
					api.Option, amountText(api.CostPer1000.Display(), r.Currency), amountText(self.CostPer1000.Display(), r.Currency))
			}
		}
	}
	if verdict == "" && len(r.Scenarios) > 0 && compared > 0 {
		a.Missing = append(a.Missing, Missing{What: "no expected scenario with a cost per 1,000 for both self-hosting and an API", Section: "scenarios"})
	}
	for _, x := range r.Crossovers {
		if x.Quote == cheapestQuote || (cheapestQuote == "" && len(r.Crossovers) == 1) {
			if t := firstNonEmpty(x.Text, x.Reason); t != "" {
				if !strings.HasPrefix(t, "the crossover") {
					t = "crossover: " + t
				}
				a.Details = append(a.Details, upperFirst(t)+".")
			}
		}
	}
	if verdict != "" && len(a.Missing) == 0 {
		a.Answered, a.Answer = true, verdict
		a.Yes, a.No = strings.HasPrefix(verdict, "Yes"), strings.HasPrefix(verdict, "No")
	} else {
		a.Answer = "Not yet: " + firstMissing(a.Missing, "the costs do not compare yet") + "."
	}
	return a
}

// scenarioBest is the self-hosted option and the API option with the
// lowest cost per 1,000 in s; nil when one has no cost per 1,000.
func scenarioBest(s ScenarioResult) (self, api *OptionCost) {
	for i := range s.Options {
		o := &s.Options[i]
		if o.CostPer1000 == nil {
			continue
		}
		switch o.Kind {
		case "self-hosted":
			self = o
		case "api":
			if api == nil || o.CostPer1000.Exact.LessThan(api.CostPer1000.Exact) {
				api = o
			}
		}
	}
	return self, api
}

func headlineDecision(in Inputs, r *Result) HeadlineAnswer {
	a := HeadlineAnswer{Question: QuestionDecide, Evidence: "recommendation"}
	rec := in.Recommendation
	switch {
	case rec == nil || rec.Decision == "":
		a.Missing = append(a.Missing, Missing{What: "no recommendation: keep, change or stop self-hosting, with an owner and a review date", Section: "recommendation"})
		a.Answer = "Not yet: no recommendation."
	default:
		a.Answered = true
		a.Answer = upperFirst(decisionText(rec.Decision)) + "."
		if rec.Owner != "" {
			a.Details = append(a.Details, "Owner: "+rec.Owner+".")
		} else {
			a.Missing = append(a.Missing, Missing{What: "the recommendation has no owner", Section: "recommendation"})
		}
		if rec.ReviewDate != "" {
			a.Details = append(a.Details, "Review date: "+rec.ReviewDate+".")
		} else {
			a.Missing = append(a.Missing, Missing{What: "the recommendation has no review date", Section: "recommendation"})
		}
	}
	a.Details = append(a.Details, reviewText(in.Workflow, r)+".")
	return a
}

// decisionText is a decision in words.
func decisionText(d string) string {
	switch d {
	case "keep":
		return "keep self-hosting"
	case "change":
		return "change how it is self-hosted"
	case "stop":
		return "stop self-hosting"
	}
	return d
}

// reviewText says where the review stands.
func reviewText(w *Workflow, r *Result) string {
	if w == nil {
		return "Review: not known"
	}
	on := func(s string) string {
		if w.By != "" {
			s += " by " + w.By
		}
		if w.At != "" {
			s += " on " + w.At
		}
		return s
	}
	switch w.State {
	case WorkflowApproved:
		return on("Approved")
	case WorkflowInReview:
		return "In review, waiting for a reviewer"
	case WorkflowSentBack:
		return on("Sent back")
	}
	if r.ExitPass {
		return "Draft: every exit-check item holds; it may be submitted for review"
	}
	n := 0
	for _, it := range r.ExitCheck {
		if !it.Pass {
			n++
		}
	}
	return fmt.Sprintf("Draft: %d of %d exit-check %s", n, len(r.ExitCheck), plural(n, "item fails", "items fail"))
}

// headlineLine is the headline in one line: each answer's first words.
func headlineLine(h Headline, r *Result) string {
	short := func(label string, a HeadlineAnswer) string {
		if !a.Answered {
			return label + ": not yet"
		}
		s := a.Answer
		if i := strings.Index(s, ":"); i > 0 && i < 7 {
			s = s[:i] // "Yes", "No" or "Partly"
		}
		return label + ": " + strings.ToLower(s)
	}
	parts := []string{short("serves", h.Serve)}
	if r.Admission.MaxInFlight != nil {
		parts = append(parts, fmt.Sprintf("admits %d in flight", *r.Admission.MaxInFlight))
	} else {
		parts = append(parts, "admits: not yet")
	}
	parts = append(parts, short("owning cheaper", h.Own))
	if h.Decision.Answered {
		parts = append(parts, strings.ToLower(strings.TrimSuffix(h.Decision.Answer, ".")))
	} else {
		parts = append(parts, "no recommendation")
	}
	return upperFirst(strings.Join(parts, " · "))
}

// firstOnly keeps the first of what the results need: the first answer
// lists them all, the others the one that comes first.
func firstOnly(m []Missing) []Missing {
	if len(m) > 1 {
		return m[:1]
	}
	return m
}

// firstMissing is the first missing thing's words, or def.
func firstMissing(m []Missing, def string) string {
	if len(m) > 0 {
		return m[0].What
	}
	return def
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// upperFirst upper-cases the first letter of s.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
