package planner

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// NextTest is the runs the envelope proposes next (docs/method.md, "The
// next test"): where the ceiling and the first failure are not adjacent,
// loads between them; where the ceiling rests on weak evidence, or a pass
// above it proved nothing, a rerun of that load with enough requests. Each
// run says how many successful requests settle its verdict at the observed
// spread, what that costs in GPU minutes at the measured rate, and the
// command that runs it. Estimate is an interpolated guess of the true
// ceiling, shown as such and never used for capacity.
type NextTest struct {
	Runs []NextRun `json:"runs"`
	// GPUs is how many GPUs a box holds for the GPU minutes, GPUsSource
	// where that came from.
	GPUs       float64 `json:"gpus"`
	GPUsSource string  `json:"gpus_source"`
	// GPUMinutes is the runs' total.
	GPUMinutes float64 `json:"gpu_minutes"`
	// Estimate is the load where the binding percentile, interpolated
	// between the ceiling and the first failure, meets its bound; nil
	// where it cannot be said. EstimateText says it, marked as an estimate.
	Estimate     *float64 `json:"estimate,omitempty"`
	EstimateText string   `json:"estimate_text,omitempty"`
	// Target is the server address the commands are written for.
	Target string `json:"target"`
	// Text is one sentence: "3 runs, about 41 GPU minutes: 10, 12 and 14
	// concurrent streams between the ceiling (8) and the first failure (16)".
	Text string `json:"text"`
}

// NextRun is one proposed run.
type NextRun struct {
	Load     float64  `json:"load"`
	LoadKind LoadKind `json:"load_kind"`
	// Why: "between the ceiling and the first failure", "the ceiling rests
	// on weak evidence", "passed but proved nothing".
	Why string `json:"why"`
	// Requests is the successful requests that settle the verdict at the
	// observed spread; Basis says how it was found.
	Requests int    `json:"requests"`
	Basis    string `json:"basis"`
	// Rate is the successful req/s expected at this load (interpolated
	// between the measured rows), Seconds the run's length (at least the
	// contract's row duration), GPUMinutes Seconds / 60 x GPUs.
	Rate       float64 `json:"rate"`
	Seconds    float64 `json:"seconds"`
	GPUMinutes float64 `json:"gpu_minutes"`
	// GuideLLM and VLLM are the command lines that run it, built from the
	// contract's workload; empty where the tool cannot be told the
	// workload (a named dataset for vLLM bench).
	GuideLLM string `json:"guidellm,omitempty"`
	VLLM     string `json:"vllm,omitempty"`
}

// DefaultTarget is the server address the proposed commands name: vLLM's
// default.
const DefaultTarget = "http://localhost:8000"

// runSlack is how much longer than the expected time a proposed run is
// given, so the estimated rate being a little high still leaves enough
// requests.
const runSlack = 1.2

// ProposeNextTest proposes the next runs for the envelope of m, or nil when
// there is nothing to propose (no ceiling, or a conclusive ceiling next to
// its first failure with nothing unproven).
func ProposeNextTest(m []RowResult, e Envelope, c Contract) *NextTest {
	if e.Ceiling == nil || e.CeilingRow == nil {
		return nil
	}
	lo := m[*e.CeilingRow]
	var hi *RowResult
	if e.FirstFailure != nil {
		for i := range m {
			if (m[i].Counted || m[i].Inconclusive) && m[i].LoadKnown && m[i].Load == *e.FirstFailure && m[i].Verdict.State != VerdictPass {
				hi = &m[i]
				break
			}
		}
	}
	conf := c.ConfidenceOrDefault()
	p := c.Objective.Percentile
	nt := &NextTest{Target: DefaultTarget}
	nt.GPUs, nt.GPUsSource = 1, "assumed 1: the contract's device does not say"
	if n, ok := GPUsFromDevice(c.Device); ok {
		nt.GPUs, nt.GPUsSource = float64(n), fmt.Sprintf("from the contract's device %q", c.Device)
	}
	kind := e.LoadKind
	add := func(load float64, why string, requests int, basis string) {
		rate := rateAt(lo, hi, load)
		secs := math.Max(c.RowDurationS, 0)
		if rate > 0 {
			secs = math.Max(secs, float64(requests)/rate)
		}
		secs = math.Ceil(secs * runSlack)
		run := NextRun{Load: load, LoadKind: kind, Why: why, Requests: requests, Basis: basis, Rate: rate, Seconds: secs,
			GPUMinutes: math.Round(secs/60*nt.GPUs*10) / 10}
		run.GuideLLM, run.VLLM = commands(c, lo.Row, run)
		nt.Runs = append(nt.Runs, run)
	}
	// A rerun of a load that passed but proved nothing.
	rerun := func(rr RowResult, why string) {
		n, basis := settleRow(rr, p, conf)
		add(rr.Load, why, n, basis)
	}
	if e.Weak {
		rerun(lo, "the ceiling rests on weak evidence")
	}
	for _, l := range e.Unproven {
		for _, rr := range m {
			if rr.Inconclusive && rr.LoadKnown && rr.Load == l {
				rerun(rr, "passed above the ceiling but proved nothing")
				break
			}
		}
	}
	// Loads between the highest pass and the first failure.
	if hi != nil {
		from := *e.Ceiling
		if len(e.Unproven) > 0 {
			from = e.Unproven[len(e.Unproven)-1]
		}
		crit, qlo, qhi, limit := bindingCriterion(lo, *hi)
		for _, x := range between(from, hi.Load, kind) {
			n, basis := settleBetween(lo, crit, qlo, qhi, limit, x, *e.Ceiling, hi.Load, p, conf)
			add(x, "between the ceiling and the first failure", n, basis)
		}
		if crit != "" && qlo <= limit && qhi > limit && hi.Load > lo.Load {
			est := lo.Load + (limit-qlo)/(qhi-qlo)*(hi.Load-lo.Load)
			nt.Estimate = F(math.Round(est*10) / 10)
			nt.EstimateText = fmt.Sprintf("estimate, not a measurement: the %s, interpolated between %s and %s, meets its bound near %s; it is never used for capacity",
				critLabel(lo, crit), loadText(kind, lo.Load), loadText(kind, hi.Load), loadText(kind, *nt.Estimate))
		}
	}
	if len(nt.Runs) == 0 {
		return nil
	}
	var loads []string
	for _, r := range nt.Runs {
		nt.GPUMinutes += r.GPUMinutes
		loads = append(loads, fmtNum(r.Load))
	}
	nt.GPUMinutes = math.Round(nt.GPUMinutes*10) / 10
	nt.Text = fmt.Sprintf("next test: %d %s at %s, about %s GPU minutes", len(nt.Runs), plural(len(nt.Runs), "run", "runs"),
		joinAnd(loads)+" "+kindUnit(kind, len(loads) == 1 && nt.Runs[0].Load == 1), fmtNum(nt.GPUMinutes))
	if hi != nil {
		nt.Text += fmt.Sprintf(" (the ceiling is %s, the first failure %s)", fmtNum(*e.Ceiling), fmtNum(hi.Load))
	}
	return nt
}

// kindUnit names a load kind's unit after a list of loads.
func kindUnit(k LoadKind, one bool) string {
	switch {
	case k == LoadRate:
		return "req/s"
	case one:
		return "concurrent stream"
	}
	return "concurrent streams"
}

// between picks up to three loads strictly between lo and hi, evenly
// spaced: whole streams for concurrency, tenths of req/s for rate.
func between(lo, hi float64, kind LoadKind) []float64 {
	var out []float64
	for i := 1; i <= 3; i++ {
		x := lo + (hi-lo)*float64(i)/4
		if kind == LoadRate {
			x = math.Round(x*10) / 10
		} else {
			x = math.Round(x)
		}
		if x > lo && x < hi && !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// rateAt is the successful req/s expected at load x: interpolated between
// the ceiling row's and the first failure's, else the ceiling row's scaled
// by load.
func rateAt(lo RowResult, hi *RowResult, x float64) float64 {
	rl := SuccessfulRate(lo.Row)
	if rl == nil {
		return 0
	}
	if hi != nil && hi.Load != lo.Load {
		if rh := SuccessfulRate(hi.Row); rh != nil && *rh > 0 {
			t := (x - lo.Load) / (hi.Load - lo.Load)
			return math.Max(*rl+t*(*rh-*rl), math.Min(*rl, *rh))
		}
	}
	if lo.Load > 0 && x > lo.Load {
		return *rl * x / lo.Load
	}
	return *rl
}

// settleRow is the successful requests that settle a row's verdict: the
// most any open bound needs, else the request count rule.
func settleRow(rr RowResult, p, conf float64) (int, string) {
	most := 0
	for _, b := range rr.Bounds {
		if b.Verdict != BoundPass && b.Settle != nil && *b.Settle > most {
			most = *b.Settle
		}
	}
	if most > 0 {
		return most, "the row's own spread: enough for each percentile's " + fmtPct(conf) + " upper bound to fall within its bound"
	}
	if len(rr.Bounds) > 0 {
		return max(MinSamplesForBound(p/100, conf), 2*rr.Bounds[0].N), "the percentile sits at its bound: twice the row's requests, and a lower load may be needed"
	}
	return MinRequestsFor(p), "the request count rule (five beyond the percentile): a confidence bound cannot be computed from a summary"
}

// bindingCriterion is the latency criterion the first failure failed on by
// the widest margin, with its measured percentile at the ceiling and at
// the failure and its bound; "" when it failed on none.
func bindingCriterion(lo, hi RowResult) (crit string, qlo, qhi, limit float64) {
	worst := 0.0
	for _, c := range hi.Verdict.Checks {
		if c.Unit != "s" || c.Pass == nil || *c.Pass || c.Measured == nil || c.Bound <= 0 {
			continue
		}
		var at *float64
		for _, l := range lo.Verdict.Checks {
			if l.Criterion == c.Criterion {
				at = l.Measured
			}
		}
		if at == nil {
			continue
		}
		if over := *c.Measured / c.Bound; over > worst {
			worst, crit, qlo, qhi, limit = over, c.Criterion, *at, *c.Measured, c.Bound
		}
	}
	return crit, qlo, qhi, limit
}

func critLabel(rr RowResult, crit string) string {
	for _, c := range rr.Verdict.Checks {
		if c.Criterion == crit {
			return c.Label
		}
	}
	return crit
}

// settleBetween is the successful requests a run at load x needs for a
// conclusive verdict: the ceiling row's spread of the binding criterion,
// scaled to the percentile interpolated at x, settled like a measured row
// (settleN); from a summary, the request count rule.
func settleBetween(lo RowResult, crit string, qlo, qhi, limit, x, from, to, p, conf float64) (int, string) {
	var b *PercentileBound
	for i := range lo.Bounds {
		if lo.Bounds[i].Criterion == crit {
			b = &lo.Bounds[i]
		}
	}
	if crit == "" || b == nil || qlo <= 0 {
		if len(lo.Bounds) > 0 {
			return MinSamplesForBound(p/100, conf), "the fewest requests with which a " + fmtPct(conf) + " bound of the p" + fmtNum(p) + " exists"
		}
		return MinRequestsFor(p), "the request count rule (five beyond the percentile): a confidence bound cannot be computed from a summary"
	}
	q := qlo + (x-from)/(to-from)*(qhi-qlo)
	vals := critValues(lo.Row, crit)
	scale := q / qlo
	within := 0
	for _, v := range vals {
		if v*scale <= limit {
			within++
		}
	}
	basis := fmt.Sprintf("the ceiling row's spread of the %s, scaled to %s s interpolated at %s (bound %s s)",
		critLabel(lo, crit), fmtNum(roundSig(q, 3)), fmtNum(x), fmtNum(limit))
	least := MinSamplesForBound(p/100, conf)
	if q > limit {
		// Expected to fail, and a measured failure counts whatever its
		// sample; enough requests that a pass, if it comes, is conclusive.
		return least, basis + ": expected to fail; the fewest requests with which a " + fmtPct(conf) + " upper bound exists, in case it passes"
	}
	if n, ok := settleN(len(vals), within, p/100, conf); ok {
		return max(n, least), basis
	}
	return maxSettle, basis + ": it sits at the bound, no number of requests settles it"
}

// critValues are a row's successful per-request figures of a criterion.
func critValues(r Row, crit string) []float64 {
	var out []float64
	for _, s := range r.Samples {
		if !s.OK {
			continue
		}
		var v float64
		ok := false
		switch crit {
		case "ttft":
			v, ok = float64(s.TTFT), Has(s.TTFT)
		case "e2e":
			v, ok = float64(s.E2E), Has(s.E2E)
		case "tpot", "itl":
			v, ok = s.InterToken()
		}
		if ok {
			out = append(out, v)
		}
	}
	return out
}

// commands builds the GuideLLM and vLLM bench command lines of a run from
// the contract's workload and model (the row's model where the contract
// names none).
func commands(c Contract, r Row, run NextRun) (guidellm, vllm string) {
	model := c.BaselineModel
	if model == "" {
		model = r.ModelName()
	}
	w := c.Workload
	pt, ot := w.PromptTokens, w.OutputTokens
	if pt <= 0 && r.PromptTokensMean != nil {
		pt = int(math.Round(*r.PromptTokensMean))
	}
	if ot <= 0 && r.OutputTokensMean != nil {
		ot = int(math.Round(*r.OutputTokensMean))
	}
	dataset := strings.EqualFold(w.Data, "dataset") && w.Dataset != ""
	data := w.Dataset
	success := 1.0
	if rr, _ := successRate(r); rr != nil && *rr > 0 {
		success = *rr
	}
	version := c.ToolVersion
	if version == "" {
		version = r.Source.ToolVersion
	}
	guidellm = guidellmCommand(version, model, data, dataset, pt, ot, run)
	if dataset || pt <= 0 || ot <= 0 || model == "" {
		return guidellm, ""
	}
	load := fmtNum(run.Load)
	prompts := int(math.Ceil(math.Max(float64(run.Requests), run.Rate*c.RowDurationS) * runSlack / success))
	v := []string{"vllm bench serve", "--backend vllm", "--base-url " + DefaultTarget, "--model " + shellQuote(model),
		"--dataset-name random", fmt.Sprintf("--random-input-len %d", pt), fmt.Sprintf("--random-output-len %d", ot),
		fmt.Sprintf("--num-prompts %d", prompts)}
	if run.LoadKind == LoadRate {
		v = append(v, "--request-rate "+load)
	} else {
		v = append(v, "--max-concurrency "+load, "--request-rate inf")
	}
	v = append(v, "--percentile-metrics ttft,tpot,itl,e2el", "--metric-percentiles 50,95,99", "--save-result", "--save-detailed")
	return guidellm, strings.Join(v, " ")
}

// guidellmCommand is the GuideLLM command line of a run, in the form the
// tool's version takes: from 0.7 "guidellm run" with --backend, --profile,
// --data and --constraint objects; 0.4 to 0.6 "guidellm benchmark" with
// --profile; before 0.4 --rate-type. A version not given takes the
// current form.
func guidellmCommand(version, model, dataset string, isDataset bool, pt, ot int, run NextRun) string {
	load, secs := fmtNum(run.Load), fmtNum(run.Seconds)
	major, minor, known := toolVersion(version)
	if !known || major > 0 || minor >= 7 {
		backend := "kind=openai_http,target=" + DefaultTarget
		if model != "" {
			backend += ",model=" + model
		}
		profile := "kind=concurrent,streams=" + load
		if run.LoadKind == LoadRate {
			profile = "kind=constant,rate=" + load
		}
		data := fmt.Sprintf("kind=synthetic_text,prompt_tokens=%d,output_tokens=%d", pt, ot)
		if isDataset {
			data = "kind=huggingface,source=" + dataset
		}
		return strings.Join([]string{"guidellm run", "--backend " + shellQuote(backend), "--profile " + profile,
			"--data " + shellQuote(data), "--constraint kind=max_duration,seconds=" + secs}, " ")
	}
	g := []string{"guidellm benchmark", "--target " + DefaultTarget}
	if model != "" {
		g = append(g, "--model "+shellQuote(model))
	}
	data := fmt.Sprintf("prompt_tokens=%d,output_tokens=%d", pt, ot)
	if isDataset {
		data = dataset
	}
	g = append(g, "--data "+shellQuote(data))
	flag := "--profile"
	if minor < 4 {
		flag = "--rate-type"
	}
	if run.LoadKind == LoadRate {
		g = append(g, flag+" constant", "--rate "+load)
	} else {
		g = append(g, flag+" concurrent", "--rate "+load)
	}
	return strings.Join(append(g, "--max-seconds "+secs), " ")
}

// toolVersion reads "0.5.3" (or "v0.5.3", "GuideLLM 0.4.1") as 0, 5.
func toolVersion(v string) (major, minor int, ok bool) {
	i := strings.IndexAny(v, "0123456789")
	if i < 0 {
		return 0, 0, false
	}
	if _, err := fmt.Sscanf(v[i:], "%d.%d", &major, &minor); err != nil {
		return 0, 0, false
	}
	return major, minor, true
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ':' || r == '=' || r == ',' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
