package planner

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// AdmissionInput holds the lead's choices for the admission limit. Zero
// values mean "use the proposal"; an override of max in flight needs a reason.
type AdmissionInput struct {
	OverrideMaxInFlight *int     `json:"override_max_in_flight"`
	OverrideReason      string   `json:"override_reason"`
	QueueSize           *int     `json:"queue_size"`
	MaxQueueAgeS        *float64 `json:"max_queue_age_s"`
	RetryAfterS         *int     `json:"retry_after_s"`
	ClientMaxRetries    *int     `json:"client_max_retries"`
}

// Admission is the limit placed in front of the model so excess work is
// refused safely instead of queueing without end: a maximum in flight
// derived from the demonstrated ceiling (with a margin when the evidence is
// weak), a finite queue with a maximum age, HTTP 429 with Retry-After on
// overload, and a small cap on backed-off client retries.
type Admission struct {
	// Basis is how in-flight was derived: "concurrency" (the ceiling's
	// streams), "littles-law" (rate x mean end-to-end latency), or "none".
	Basis string `json:"basis"`
	// CeilingInFlight is the in-flight count the ceiling demonstrates.
	CeilingInFlight *int `json:"ceiling_in_flight"`
	// LittlesLaw shows the arithmetic for rate runs, e.g.
	// "11.3 req/s x 13.9 s = 157.07, rounded down to 157".
	LittlesLaw string `json:"littles_law,omitempty"`
	// WeakEvidence lists why the evidence is weak (short windows, few
	// requests, few rows); a margin is proposed when it is not empty.
	WeakEvidence []string `json:"weak_evidence"`
	// Margin is the fraction taken off the ceiling (0.25 = 25 %).
	Margin float64 `json:"margin"`
	// ProposedMaxInFlight is the proposal after the margin.
	ProposedMaxInFlight *int `json:"proposed_max_in_flight"`
	// Overridden is true when the lead replaced the proposal.
	Overridden     bool   `json:"overridden"`
	OverrideReason string `json:"override_reason,omitempty"`
	// MaxInFlight is the limit in force: the override or the proposal.
	MaxInFlight *int `json:"max_in_flight"`
	// WaitBudgetS is the longest a request may queue and still meet the
	// objective: the TTFT bound less the ceiling's TTFT at the objective's
	// percentile (docs/method.md, "Admission inside the objective"); nil
	// when the objective or the ceiling lacks it. WaitBudget says it.
	WaitBudgetS *float64 `json:"wait_budget_s"`
	WaitBudget  string   `json:"wait_budget"`
	// DrainRate is the requests the slots complete a second: the
	// ceiling's successful rate x max in flight / the ceiling's in flight
	// (else max in flight / its mean end-to-end time); nil when unknown.
	DrainRate *float64 `json:"drain_rate"`
	// QueueSize is the most requests waiting, 0 for none (429 at once);
	// MaxQueueAgeS the longest one waits before 429.
	QueueSize      int     `json:"queue_size"`
	MaxQueueAgeS   float64 `json:"max_queue_age_s"`
	OverloadStatus int     `json:"overload_status"`
	// NoCapacityStatus is the answer when no replica is up at all (503),
	// against OverloadStatus (429 with Retry-After) over the limit.
	NoCapacityStatus int    `json:"no_capacity_status"`
	RetryAfterS      int    `json:"retry_after_s"`
	ClientMaxRetries int    `json:"client_max_retries"`
	Backoff          string `json:"backoff"`
	// Reasons explain each proposed value.
	Reasons []string `json:"reasons"`
	// Settings are the ready-to-paste server and gateway settings.
	Settings Settings `json:"settings"`
}

// Settings are the admission limit as configuration: vLLM flags and a
// gateway block, ready to paste.
type Settings struct {
	// VLLMFlags are the flags for `vllm serve`, e.g. "--max-num-seqs 8".
	VLLMFlags []string `json:"vllm_flags"`
	// VLLMNotes say what the flags do not cover (e.g. queue limits the
	// recorded vLLM version lacks, to be enforced at the gateway).
	VLLMNotes []string `json:"vllm_notes"`
	// Gateway is the gateway's admission block; zero, with GatewayJSON
	// empty, when there is no max in flight (GatewayNotes say why).
	Gateway Gateway `json:"gateway"`
	// GatewayJSON is Gateway as indented JSON, ready to paste; "" when no
	// block is proposed.
	GatewayJSON string `json:"gateway_json"`
	// GatewayNotes say why no gateway block is proposed.
	GatewayNotes []string `json:"gateway_notes"`
}

// Gateway is the admission block for the gateway in front of vLLM.
type Gateway struct {
	MaxInFlight      int     `json:"max_in_flight"`
	QueueSize        int     `json:"queue_size"`
	MaxQueueAgeS     float64 `json:"max_queue_age_s"`
	OverloadStatus   int     `json:"overload_status"`
	NoCapacityStatus int     `json:"no_capacity_status"`
	RetryAfterS      int     `json:"retry_after_s"`
	ClientMaxRetries int     `json:"client_max_retries"`
	Backoff          string  `json:"backoff"`
}

// Overload outcomes: what came back when load was sent above the limit.
const (
	OverloadRejected429  = "429-retry-after" // refused with 429 and Retry-After
	OverloadBoundedQueue = "bounded-queue"   // queued within the max queue age
	OverloadOther        = "other"           // anything else: timeouts, 5xx, OOM
)

// OverloadTest records the deliberate test above the admission limit: what
// was sent, what came back, and whether the worker stayed healthy and
// recovered afterwards.
type OverloadTest struct {
	Sent    string `json:"sent"`    // e.g. "20 concurrent streams for 60 s"
	Outcome string `json:"outcome"` // one of the Overload* constants
	// RetryAfter is true when 429 responses carried Retry-After.
	RetryAfter    bool   `json:"retry_after"`
	WorkerHealthy bool   `json:"worker_healthy"`
	Recovered     bool   `json:"recovered"`
	Date          string `json:"date"`
	Notes         string `json:"notes"`
}

// OverloadResult is the verdict on the overload test.
type OverloadResult struct {
	Recorded bool          `json:"recorded"`
	Test     *OverloadTest `json:"test"`
	Pass     bool          `json:"pass"`
	Reasons  []string      `json:"reasons"`
}

// Thresholds of weak evidence and the margin taken when evidence is weak.
const (
	MinWindowS     = 60   // a row shorter than this is a short window
	MinSearchRows  = 4    // fewer judged rows is a quick search
	WeakMargin     = 0.25 // taken off the ceiling when evidence is weak
	DefaultRetries = 2
	DefaultBackoff = "exponential: wait Retry-After, then double it each retry, with jitter"
	overloadStatus = 429
	// noCapacityStatus answers when no replica is up at all.
	noCapacityStatus = 503
	defaultQueueAge  = 30.0
)

// ProposeAdmission derives the admission limit from the judged matrix and
// its envelope: the in-flight count the ceiling demonstrates (its streams,
// or rate x mean latency by Little's law), a margin when the evidence is
// weak, a finite queue and queue age, 429 with Retry-After and a small retry
// cap, each with its reason; the lead's override replaces max in flight.
func ProposeAdmission(m []RowResult, e Envelope, o Objective, c Contract, in AdmissionInput) Admission {
	a := Admission{Basis: "none", OverloadStatus: overloadStatus, NoCapacityStatus: noCapacityStatus, Backoff: DefaultBackoff}
	var ceil *RowResult
	if e.CeilingRow != nil {
		ceil = &m[*e.CeilingRow]
	}

	if ceil == nil {
		a.Reasons = append(a.Reasons, "no demonstrated ceiling: nothing to derive max in flight from ("+e.Text+")")
	} else {
		a.deriveInFlight(ceil)
		a.weakEvidence(m, e, ceil, c)
	}
	if a.CeilingInFlight != nil {
		n := *a.CeilingInFlight
		if len(a.WeakEvidence) > 0 {
			a.Margin = WeakMargin
			n = max(1, int(math.Floor(float64(n)*(1-WeakMargin))))
			a.Reasons = append(a.Reasons, fmt.Sprintf("evidence is weak (%s): proposing %d, %s below the ceiling's %d", strings.Join(a.WeakEvidence, "; "), n, fmtPct(WeakMargin), *a.CeilingInFlight))
		} else {
			rule := fmt.Sprintf("rows of %d s or more; at the ceiling and at the first failure, %s; %d or more counted rows", MinWindowS, EvidenceRule(c), MinSearchRows)
			adequate := "evidence is adequate (" + rule + "): max in flight at the ceiling"
			if e.StoppedAt != nil {
				// The ceiling is conclusive, but a row above it was left
				// out for its evidence (docs/method.md, "Weak evidence").
				adequate = fmt.Sprintf("evidence at the ceiling is adequate (%s): max in flight at the ceiling; %s passed on weak evidence and is left out, so more is not admitted until it is rerun",
					rule, loadText(e.LoadKind, *e.StoppedAt))
			}
			a.Reasons = append(a.Reasons, adequate)
		}
		a.ProposedMaxInFlight = I(n)
		a.MaxInFlight = I(n)
	}
	if in.OverrideMaxInFlight != nil {
		a.Overridden = true
		a.OverrideReason = in.OverrideReason
		a.MaxInFlight = I(*in.OverrideMaxInFlight)
		a.Reasons = append(a.Reasons, fmt.Sprintf("max in flight overridden to %d by the lead: %s", *in.OverrideMaxInFlight, orNone(in.OverrideReason)))
	}

	mif := 0
	if a.MaxInFlight != nil {
		mif = *a.MaxInFlight
	}
	a.queueWithinObjective(ceil, o, mif, in)
	if in.ClientMaxRetries != nil {
		a.ClientMaxRetries = *in.ClientMaxRetries
	} else {
		a.ClientMaxRetries = DefaultRetries
	}
	a.Reasons = append(a.Reasons, fmt.Sprintf("clients retry at most %d times with backoff (%s); immediate retries turn overload into more overload", a.ClientMaxRetries, a.Backoff))

	a.Settings = settings(a, c)
	return a
}

// deriveInFlight sets the in-flight count the ceiling row demonstrates.
func (a *Admission) deriveInFlight(ceil *RowResult) {
	r := ceil.Row
	switch r.LoadKind {
	case LoadConcurrency, LoadSynchronous:
		a.Basis = "concurrency"
		streams := int(math.Floor(ceil.Load))
		n := streams
		reason := fmt.Sprintf("the ceiling row ran %d %s", streams, plural(streams, "stream", "streams"))
		if ac := r.AchievedConcurrency; ac != nil {
			if *ac < 0.9*float64(streams) {
				n = max(1, int(math.Floor(*ac)))
				reason += fmt.Sprintf(" but achieved only %s in flight, so %d is what was demonstrated", fmtNum(*ac), n)
			} else {
				reason += fmt.Sprintf(" and achieved %s in flight", fmtNum(*ac))
			}
		}
		a.CeilingInFlight = I(n)
		a.Reasons = append(a.Reasons, reason)
	default:
		rate := firstOf(r.RequestRate, r.AchievedRate, r.Load)
		if rate == nil || r.E2E.Mean == nil {
			if r.AchievedConcurrency != nil {
				a.Basis = "concurrency"
				a.CeilingInFlight = I(int(math.Floor(*r.AchievedConcurrency)))
				a.Reasons = append(a.Reasons, fmt.Sprintf("the ceiling row achieved %s in flight", fmtNum(*r.AchievedConcurrency)))
				return
			}
			a.Reasons = append(a.Reasons, "the ceiling row lacks its request rate or mean end-to-end latency: Little's law cannot be applied")
			return
		}
		a.Basis = "littles-law"
		n, text := LittlesLaw(*rate, *r.E2E.Mean)
		a.CeilingInFlight = I(n)
		a.LittlesLaw = text
		a.Reasons = append(a.Reasons, "by Little's law, in flight = rate x mean end-to-end latency: "+text)
	}
}

// LittlesLaw returns the requests in flight at a rate (req/s) and a mean
// latency (s), rounded down, with the arithmetic spelled out.
func LittlesLaw(rate, meanLatencyS float64) (int, string) {
	l := rate * meanLatencyS
	n := int(math.Floor(l + 1e-9))
	return n, fmt.Sprintf("%s req/s x %s s = %s, rounded down to %d", fmtNum(rate), fmtNum(meanLatencyS), fmtNum(l), n)
}

// weakEvidence lists why the evidence behind the ceiling is weak: counted
// rows in the envelope shorter than MinWindowS, a ceiling row or a first
// failing row that is not adequate evidence by EvidenceRule (the failure
// is what places the ceiling, so its sample matters as much), and fewer
// than MinSearchRows counted rows.
func (a *Admission) weakEvidence(m []RowResult, e Envelope, ceil *RowResult, c Contract) {
	var short, thin []string
	counted := 0
	var firstFail *RowResult
	for i, rr := range m {
		if !rr.Counted && !rr.InEnvelope {
			continue
		}
		counted++
		if firstFail == nil && e.FirstFailure != nil && rr.Load == *e.FirstFailure && rr.Verdict.State != VerdictPass {
			firstFail = &m[i]
		}
		if !rr.InEnvelope {
			continue
		}
		if d := rr.Row.DurationS; d != nil && *d < 0.95*MinWindowS { // 5 % slack for rounding
			short = append(short, fmt.Sprintf("%s (%s s)", fmtNum(rr.Load), fmtNum(*d)))
		}
	}
	if why := ceil.EvidenceShortfall(c, "the ceiling row"); why != "" {
		thin = append(thin, why)
	}
	if firstFail != nil {
		if why := firstFail.EvidenceShortfall(c, fmt.Sprintf("the first failing row (%s)", loadText(firstFail.Row.LoadKind, firstFail.Load))); why != "" {
			thin = append(thin, why)
		}
		if d := firstFail.Row.DurationS; d != nil && *d < 0.95*MinWindowS {
			thin = append(thin, fmt.Sprintf("the first failing row (%s) ran %s s, shorter than %d s", loadText(firstFail.Row.LoadKind, firstFail.Load), fmtNum(*d), MinWindowS))
		}
	}
	if e.Weak && ceil.Inconclusive {
		a.WeakEvidence = append(a.WeakEvidence, "the ceiling row passed on weak evidence ("+ceil.NotCountedText()+")")
	}
	if len(short) > 0 {
		a.WeakEvidence = append(a.WeakEvidence, fmt.Sprintf("rows shorter than %d s: %s", MinWindowS, strings.Join(short, ", ")))
	}
	a.WeakEvidence = append(a.WeakEvidence, thin...)
	if counted < MinSearchRows {
		a.WeakEvidence = append(a.WeakEvidence, fmt.Sprintf("a quick search: only %d counted %s", counted, plural(counted, "row", "rows")))
	}
}

// queueWithinObjective sizes the queue so waiting never breaks the TTFT
// bound (docs/method.md, "Admission inside the objective"): the wait
// budget is the bound less the ceiling's TTFT at the objective's
// percentile; the max queue age is that budget and the queue holds what
// the slots drain within it; none when the budget is shorter than the
// slots take to free one slot (429 at once). Retry-After is the time the
// requests ahead of a refused one take to drain. The lead's settings win.
func (a *Admission) queueWithinObjective(ceil *RowResult, o Objective, mif int, in AdmissionInput) {
	if ceil != nil {
		r := ceil.Row
		rate := SuccessfulRate(r)
		switch {
		case mif > 0 && rate != nil && a.CeilingInFlight != nil && *a.CeilingInFlight > 0:
			// The ceiling's rate, scaled to the slots in force.
			a.DrainRate = F(*rate * float64(mif) / float64(*a.CeilingInFlight))
		case mif > 0 && r.E2E.Mean != nil && *r.E2E.Mean > 0:
			a.DrainRate = F(float64(mif) / *r.E2E.Mean)
		default:
			a.DrainRate = rate
		}
		if a.DrainRate != nil && *a.DrainRate <= 0 {
			a.DrainRate = nil
		}
		pct := "p" + fmtNum(o.Percentile)
		// The budget is a setting to paste: rounded down to 0.01 s, never
		// above what the bound leaves.
		cents := func(v float64) float64 { return math.Floor(max(0, v)*100+1e-9) / 100 }
		switch ttft, e2e := r.TTFT.Percentile(o.Percentile), r.E2E.Percentile(o.Percentile); {
		case o.TTFTMax != nil && ttft != nil:
			b := cents(*o.TTFTMax - *ttft)
			a.WaitBudgetS = F(b)
			a.WaitBudget = fmt.Sprintf("wait budget %s s: the %s TTFT bound %s s less the ceiling's %s TTFT %s s", fmtNum(b), pct, fmtNum(*o.TTFTMax), pct, fmtNum(*ttft))
		case o.TTFTMax == nil && o.E2EMax != nil && e2e != nil:
			b := cents(*o.E2EMax - *e2e)
			a.WaitBudgetS = F(b)
			a.WaitBudget = fmt.Sprintf("wait budget %s s: the objective has no TTFT bound, so the %s end-to-end bound %s s less the ceiling's %s end-to-end %s s", fmtNum(b), pct, fmtNum(*o.E2EMax), pct, fmtNum(*e2e))
		case o.TTFTMax != nil:
			a.WaitBudget = fmt.Sprintf("no wait budget: the ceiling row has no %s TTFT to take from the bound", pct)
		default:
			a.WaitBudget = "no wait budget: the objective bounds neither TTFT nor end-to-end time"
		}
	}
	fits := 0 // the requests the slots drain within the budget
	if a.WaitBudgetS != nil && a.DrainRate != nil {
		fits = int(math.Floor(*a.WaitBudgetS**a.DrainRate + 1e-9))
	}
	switch {
	case in.QueueSize != nil:
		a.QueueSize = *in.QueueSize
		a.Reasons = append(a.Reasons, fmt.Sprintf("queue size %d as set by the lead", a.QueueSize))
	case mif <= 0:
		a.Reasons = append(a.Reasons, "queue size: none proposed until there is a max in flight to size it from")
	case a.WaitBudgetS == nil || a.DrainRate == nil:
		a.Reasons = append(a.Reasons, "no queue: "+orNone(a.WaitBudget)+"; excess requests get 429 at once")
	case fits < 1:
		a.Reasons = append(a.Reasons, fmt.Sprintf("no queue: the %s is shorter than the slots take to free one (1 / %s req/s = %s s), so a waiting request would miss the TTFT bound; excess requests get 429 at once",
			a.WaitBudget, fmtNum(*a.DrainRate), fmtNum(1 / *a.DrainRate)))
	default:
		a.QueueSize = fits
		a.Reasons = append(a.Reasons, fmt.Sprintf("queue size %d: what the slots drain within the %s (%s s x %s req/s, rounded down)",
			fits, a.WaitBudget, fmtNum(*a.WaitBudgetS), fmtNum(*a.DrainRate)))
	}
	switch {
	case in.MaxQueueAgeS != nil:
		a.MaxQueueAgeS = *in.MaxQueueAgeS
		a.Reasons = append(a.Reasons, fmt.Sprintf("max queue age %s s as set by the lead", fmtNum(a.MaxQueueAgeS)))
	case a.QueueSize == 0:
	case a.WaitBudgetS != nil:
		a.MaxQueueAgeS = *a.WaitBudgetS
		a.Reasons = append(a.Reasons, fmt.Sprintf("max queue age %s s: the wait budget; a request that would wait longer gets 429 rather than a first token past the bound", fmtNum(a.MaxQueueAgeS)))
	default:
		a.MaxQueueAgeS = defaultQueueAge
		a.Reasons = append(a.Reasons, fmt.Sprintf("max queue age %s s: no wait budget to derive it from", fmtNum(a.MaxQueueAgeS)))
	}
	switch {
	case in.RetryAfterS != nil:
		a.RetryAfterS = *in.RetryAfterS
		a.Reasons = append(a.Reasons, fmt.Sprintf("Retry-After %d s as set by the lead", a.RetryAfterS))
	case a.DrainRate != nil:
		ahead := a.QueueSize + 1
		a.RetryAfterS = max(1, int(math.Ceil(float64(ahead) / *a.DrainRate - 1e-9)))
		a.Reasons = append(a.Reasons, fmt.Sprintf("overload answer HTTP %d with Retry-After %d s: the %d %s ahead of a refused one (a full queue and itself) drain at %s req/s, rounded up",
			a.OverloadStatus, a.RetryAfterS, ahead, plural(ahead, "request", "requests"), fmtNum(*a.DrainRate)))
	default:
		a.RetryAfterS = 5
		a.Reasons = append(a.Reasons, fmt.Sprintf("overload answer HTTP %d with Retry-After 5 s (no drain rate at the ceiling to derive it from)", a.OverloadStatus))
	}
	a.Reasons = append(a.Reasons, fmt.Sprintf("HTTP %d with Retry-After when the limit and queue are full (the capacity is there, later); HTTP %d when no replica is up at all (no capacity to wait for)", a.OverloadStatus, a.NoCapacityStatus))
}

// completed is successful + errored, nil when unknown.
func completed(r Row) *int {
	if r.Successful == nil {
		return nil
	}
	n := *r.Successful
	if r.Errored != nil {
		n += *r.Errored
	}
	return &n
}

// settings renders the admission limit as vLLM flags and a gateway block.
// vLLM bounds the running batch (--max-num-seqs) but capplan knows of no
// flag, in any recorded version, that bounds its waiting queue or answers
// 429, so those are left to the gateway and said so.
func settings(a Admission, c Contract) Settings {
	var s Settings
	if a.MaxInFlight == nil {
		s.VLLMNotes = append(s.VLLMNotes, "no max in flight: no flags proposed until the matrix demonstrates a ceiling or the lead sets one")
	} else {
		s.VLLMFlags = append(s.VLLMFlags, fmt.Sprintf("--max-num-seqs %d", *a.MaxInFlight))
		v := c.VLLMVersion
		if v == "" {
			v = "unrecorded"
		}
		s.VLLMNotes = append(s.VLLMNotes,
			fmt.Sprintf("vLLM version %s: only --max-num-seqs is proposed; enforce the queue size, queue age and 429 at the gateway, and check `vllm serve --help` of the pinned release for queue limits before adding any", v))
	}
	if a.MaxInFlight == nil {
		// A block with max_in_flight 0 would refuse all traffic once pasted.
		s.GatewayNotes = append(s.GatewayNotes, "no max in flight: no gateway block proposed until the matrix demonstrates a ceiling or the lead sets one (a limit of 0 would refuse every request)")
		return s
	}
	s.GatewayNotes = append(s.GatewayNotes, fmt.Sprintf("over the limit with the queue full: HTTP %d with Retry-After; no replica up at all: HTTP %d", a.OverloadStatus, a.NoCapacityStatus))
	s.Gateway = Gateway{
		MaxInFlight:      *a.MaxInFlight,
		QueueSize:        a.QueueSize,
		MaxQueueAgeS:     a.MaxQueueAgeS,
		OverloadStatus:   a.OverloadStatus,
		NoCapacityStatus: a.NoCapacityStatus,
		RetryAfterS:      a.RetryAfterS,
		ClientMaxRetries: a.ClientMaxRetries,
		Backoff:          a.Backoff,
	}
	b, _ := json.MarshalIndent(s.Gateway, "", "  ")
	s.GatewayJSON = string(b)
	return s
}

// JudgeOverload gives the verdict on the overload test: it passes when
// excess load was refused with 429 and Retry-After or queued within bounds,
// and the worker stayed healthy and recovered.
func JudgeOverload(t *OverloadTest) OverloadResult {
	res := OverloadResult{Test: t}
	if t == nil {
		res.Reasons = []string{"the overload test is not recorded"}
		return res
	}
	res.Recorded = true
	res.Pass = true
	fail := func(why string) { res.Pass = false; res.Reasons = append(res.Reasons, why) }
	switch t.Outcome {
	case OverloadRejected429:
		if t.RetryAfter {
			res.Reasons = append(res.Reasons, "excess requests were refused with 429 and Retry-After")
		} else {
			fail("excess requests got 429 without Retry-After")
		}
	case OverloadBoundedQueue:
		res.Reasons = append(res.Reasons, "excess requests waited in a bounded queue")
	case "":
		fail("what came back is not recorded")
	default:
		fail("excess load was neither refused with 429 nor queued within bounds: " + orNone(t.Notes))
	}
	if strings.TrimSpace(t.Sent) == "" {
		fail("what was sent above the limit is not recorded")
	}
	if t.WorkerHealthy {
		res.Reasons = append(res.Reasons, "the worker stayed healthy")
	} else {
		fail("the worker did not stay healthy")
	}
	if t.Recovered {
		res.Reasons = append(res.Reasons, "service recovered after the excess load")
	} else {
		fail("service did not recover after the excess load")
	}
	return res
}

func firstOf(vs ...*float64) *float64 {
	for _, v := range vs {
		if v != nil {
			return v
		}
	}
	return nil
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(no reason given)"
	}
	return s
}
