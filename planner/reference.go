package planner

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Reference rows are points of a public frontier (InferenceX's tokens/s
// per GPU against tokens/s per user): a prior before the box exists and a
// yardstick after the test, never evidence (docs/method.md, "Reference
// rows"). They are their own type: nothing that judges rows (JudgeMatrix,
// ProposeAdmission, PerBoxCapacity, the exit check's evidence items) takes
// a ReferenceRow, so a reference row cannot move the envelope, the
// admission limit, the capacity or the verdict. CompareReference reads the
// judged matrix and writes Result.Reference only.

// ReferenceRow is one published frontier point.
type ReferenceRow struct {
	// Source names where the figures were published ("InferenceX
	// agg_bmk.json", "InferenceX dashboard CSV", or what was typed), File
	// and SHA256 the imported file, Path the place inside it ("[3]",
	// "line 4"); Date is when they were published or retrieved, YYYY-MM-DD.
	Source string `json:"source"`
	File   string `json:"file,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	Path   string `json:"path,omitempty"`
	Date   string `json:"date"`
	// Format is "inferencex-json", "inferencex-csv" or "typed".
	Format string `json:"format"`

	GPU       string `json:"gpu"`
	Model     string `json:"model"`
	Framework string `json:"framework,omitempty"`
	Precision string `json:"precision,omitempty"`
	// SpecDecoding is the speculative decoding used ("none", "mtp", ...),
	// Disagg whether prefill and decode ran on separate GPUs.
	SpecDecoding string `json:"spec_decoding,omitempty"`
	Disagg       bool   `json:"disagg,omitempty"`
	// ISL and OSL are the input and output sequence lengths, tokens.
	ISL         int      `json:"isl"`
	OSL         int      `json:"osl"`
	Concurrency *float64 `json:"concurrency,omitempty"`
	TP          int      `json:"tp,omitempty"`
	EP          int      `json:"ep,omitempty"`
	DPAttention bool     `json:"dp_attention,omitempty"`

	// OutputPerGPU is output tokens/s per GPU; Interactivity is tokens/s
	// per user, 1/ITL as InferenceX plots it. Both are required.
	OutputPerGPU  float64  `json:"output_tput_per_gpu"`
	InputPerGPU   *float64 `json:"input_tput_per_gpu,omitempty"`
	TotalPerGPU   *float64 `json:"tput_per_gpu,omitempty"`
	Interactivity float64  `json:"intvty"`
	// Latencies in seconds, as published (median and p99: no p95).
	MedianTTFT *float64 `json:"median_ttft,omitempty"`
	P99TTFT    *float64 `json:"p99_ttft,omitempty"`
	MedianE2E  *float64 `json:"median_e2el,omitempty"`
	P99E2E     *float64 `json:"p99_e2el,omitempty"`

	// RandomIgnoreEOS is true when the reference ran random tokens with
	// ignore-eos (every answer runs to its full OSL), PrefixCacheOff when
	// it ran with the prefix cache off: both hold for InferenceX rows.
	RandomIgnoreEOS bool `json:"random_ignore_eos,omitempty"`
	PrefixCacheOff  bool `json:"prefix_cache_off,omitempty"`
}

// ReferenceInput is a report's reference rows.
type ReferenceInput struct {
	Rows []ReferenceRow `json:"rows"`
}

// boxGPUs is the GPUs a measured row's output is divided by, and where
// that came from: the GPUs per box typed in the costs, else the contract's
// device ("2x H100"), else 1 (as the frontier-comparable cost counts them).
func boxGPUs(in Inputs) (float64, string) {
	if g := in.SelfHosted.GPUsPerBox; g != nil && g.Amount.IsPositive() {
		return g.Amount.InexactFloat64(), "typed in the costs (GPUs per box)"
	}
	if n, ok := GPUsFromDevice(in.Contract.Device); ok {
		return float64(n), fmt.Sprintf("from the contract's device %q", in.Contract.Device)
	}
	return 1, "assumed 1: type the GPUs per box in the costs"
}

// MaxReferenceRows bounds a report's reference rows (InferenceX publishes a
// few thousand points for all GPUs, models and frameworks).
const MaxReferenceRows = 20_000

// ReferenceTolerance is how near a reference row's ISL and OSL must be to
// the contract's prompt and output tokens to match: within 10 % of each.
const ReferenceTolerance = 0.10

// Validate checks a reference row as typed or imported; field names start
// "reference.".
func (rr ReferenceRow) Validate() error {
	var es FieldErrors
	if strings.TrimSpace(rr.Source) == "" {
		es.add("reference.source", "say where the figures were published (e.g. InferenceX, with the page or file)")
	}
	if _, err := time.Parse(DateLayout, rr.Date); err != nil {
		es.add("reference.date", fmt.Sprintf("the date the figures were published or retrieved, YYYY-MM-DD; got %q", rr.Date))
	}
	if strings.TrimSpace(rr.GPU) == "" {
		es.add("reference.gpu", "the GPU the reference ran on, e.g. H100")
	}
	if strings.TrimSpace(rr.Model) == "" {
		es.add("reference.model", "the model the reference served")
	}
	if rr.ISL <= 0 {
		es.add("reference.isl", "input tokens per request, a whole number above 0")
	}
	if rr.OSL <= 0 {
		es.add("reference.osl", "output tokens per request, a whole number above 0")
	}
	if !(rr.OutputPerGPU > 0) || math.IsInf(rr.OutputPerGPU, 0) {
		es.add("reference.output_tput_per_gpu", "output tokens per second per GPU, a number above 0")
	}
	if !(rr.Interactivity > 0) || math.IsInf(rr.Interactivity, 0) {
		es.add("reference.intvty", "tokens per second per user (1/ITL, as InferenceX plots it), a number above 0")
	}
	return es.err()
}

// ReferenceResult is the reference rows as the report shows them: each
// matched to the report or not, the frontier of the matched ones, the
// measured rows' ratio to it and the differences that usually explain a
// gap.
type ReferenceResult struct {
	// Plan is true when the report has reference rows and no measured
	// rows: a plan made before the box exists, which cannot be approved.
	Plan bool `json:"plan"`
	// Rule states the matching rule in a sentence.
	Rule string `json:"rule"`
	// BoxGPUs is the GPU count a measured row's output tok/s is divided
	// by, GPUsSource where it came from.
	BoxGPUs    float64          `json:"box_gpus"`
	GPUsSource string           `json:"gpus_source"`
	Rows       []ReferenceMatch `json:"rows"`
	// Matched counts the rows that match the report.
	Matched int `json:"matched"`
	// Frontier is the matched rows' frontier, by interactivity: the
	// points no other matched row beats on both tok/s/user and tok/s/GPU.
	Frontier []FrontierPoint `json:"frontier"`
	// Ratios are the counted rows' standing against the frontier, in
	// matrix order; Ratio is the ceiling row's (the headline's), nil when
	// the report has no ceiling row.
	Ratios []FrontierRatio `json:"ratios"`
	Ratio  *FrontierRatio  `json:"ratio"`
	// Text says the headline's sentence: the ratio at the ceiling, or why
	// there is none.
	Text string `json:"text"`
	// Differences are what usually explains a gap, read from the
	// frontier's rows and the report's contract.
	Differences []string `json:"differences"`
}

// ReferenceMatch is one reference row and whether it matches the report:
// Mismatch names each term that differs, Near each that matches within
// the rule's tolerance only or could not be checked.
type ReferenceMatch struct {
	Row      ReferenceRow `json:"row"`
	Matched  bool         `json:"matched"`
	Mismatch []string     `json:"mismatch"`
	Near     []string     `json:"near"`
}

// FrontierPoint is one point of the frontier; Row is its index in
// ReferenceResult.Rows.
type FrontierPoint struct {
	Interactivity float64 `json:"intvty"`
	OutputPerGPU  float64 `json:"output_tput_per_gpu"`
	Row           int     `json:"row"`
}

// FrontierRatio is one counted row against the frontier at its
// interactivity. Ratio and FrontierPerGPU are nil when the row's
// interactivity lies outside the frontier's range (Outside says so) or is
// not known.
type FrontierRatio struct {
	// MatrixRow is the row's index in Result.Matrix.
	MatrixRow int      `json:"matrix_row"`
	Load      *float64 `json:"load"`
	LoadKind  LoadKind `json:"load_kind"`
	// LoadText names the load: "8 concurrent streams".
	LoadText string `json:"load_text"`
	// Interactivity is the row's output speed per user, 1/ITL (its median,
	// else its mean; 1/TPOT, named, only when the file has no ITL),
	// InteractivityFrom which figure.
	Interactivity     *float64 `json:"intvty"`
	InteractivityFrom string   `json:"intvty_from,omitempty"`
	// OutputPerGPU is the row's output tok/s over BoxGPUs.
	OutputPerGPU   *float64 `json:"output_tput_per_gpu"`
	FrontierPerGPU *float64 `json:"frontier_output_tput_per_gpu"`
	Ratio          *float64 `json:"ratio"`
	// Outside is why no ratio is given ("" when there is one).
	Outside string `json:"outside,omitempty"`
	Text    string `json:"text"`
}

// CompareReference matches the reference rows to the report and measures
// the counted rows against the matched rows' frontier (docs/method.md,
// "Reference rows"). It reads the judged matrix and the envelope and
// changes nothing in r; nil when the report has no reference rows.
func CompareReference(in Inputs, r *Result) *ReferenceResult {
	if in.Reference == nil || len(in.Reference.Rows) == 0 {
		return nil
	}
	c := in.Contract
	box := boxTerms(c, r.Matrix)
	gpus, gpuSrc := boxGPUs(in)
	res := &ReferenceResult{
		Plan:       len(in.Rows) == 0,
		BoxGPUs:    gpus,
		GPUsSource: gpuSrc,
		Rule: fmt.Sprintf("A reference row matches when its GPU is the contract's device, its model the contract's baseline model (organisation, case, punctuation and precision words ignored), its precision the model's or artifact's when they state one, and its ISL and OSL are each within %s of the contract's prompt and output tokens.",
			DisplayShare(ReferenceTolerance)),
		Rows:        make([]ReferenceMatch, len(in.Reference.Rows)),
		Frontier:    []FrontierPoint{},
		Ratios:      []FrontierRatio{},
		Differences: []string{},
	}
	for i, rr := range in.Reference.Rows {
		m := box.match(rr)
		m.Row = rr
		res.Rows[i] = m
		if m.Matched {
			res.Matched++
		}
	}
	res.Frontier = frontier(res.Rows)
	for i, m := range r.Matrix {
		if !m.Counted {
			continue
		}
		fr := res.ratio(i, m)
		res.Ratios = append(res.Ratios, fr)
		if r.Envelope.CeilingRow != nil && *r.Envelope.CeilingRow == i {
			f := fr
			res.Ratio = &f
		}
	}
	res.Text = res.headlineText(r)
	res.Differences = res.differences(in, box)
	return res
}

// headlineText is the sentence of the headline and the page.
func (res *ReferenceResult) headlineText(r *Result) string {
	n := len(res.Rows)
	switch {
	case res.Plan:
		if res.Matched == 0 {
			return fmt.Sprintf("A plan: %d reference %s, none matching the contract, and no measurement of the box.", n, plural(n, "row", "rows"))
		}
		lo, hi := res.Frontier[0], res.Frontier[len(res.Frontier)-1]
		return fmt.Sprintf("A plan: the public frontier for this GPU, model and workload runs from %s output tok/s per GPU at %s tok/s/user to %s at %s tok/s/user; no measurement of the box yet.",
			DisplayNumber(lo.OutputPerGPU, 1), DisplayNumber(lo.Interactivity, 1), DisplayNumber(hi.OutputPerGPU, 1), DisplayNumber(hi.Interactivity, 1))
	case res.Matched == 0:
		return fmt.Sprintf("None of the %d reference %s matches the contract's GPU, model, precision and workload: no frontier to compare with.", n, plural(n, "row", "rows"))
	case res.Ratio == nil:
		if r.Envelope.CeilingRow == nil {
			return "No demonstrated ceiling yet: the ratio to the public frontier is given at the ceiling row."
		}
		return "The ceiling row is not counted: no ratio to the public frontier."
	}
	return res.Ratio.Text
}

// ratio measures matrix row i against the frontier.
func (res *ReferenceResult) ratio(i int, m RowResult) FrontierRatio {
	fr := FrontierRatio{MatrixRow: i, LoadKind: m.Row.LoadKind}
	if m.LoadKnown {
		fr.Load, fr.LoadText = F(m.Load), loadText(m.Row.LoadKind, m.Load)
	}
	at := loadWords(m)
	x, from := rowInteractivity(m.Row)
	fr.Interactivity, fr.InteractivityFrom = x, from
	if o := m.Row.OutputTokenRate; o != nil {
		fr.OutputPerGPU = F(*o / res.BoxGPUs)
	}
	switch {
	case fr.Interactivity == nil:
		fr.Outside = "the row's file gives no TPOT or ITL, so its tok/s/user is not known"
	case fr.OutputPerGPU == nil:
		fr.Outside = "the row's file gives no output token rate"
	case len(res.Frontier) == 0:
		fr.Outside = "no reference row matches the contract"
	default:
		y, ok := interpolate(res.Frontier, *fr.Interactivity)
		if !ok {
			lo, hi := res.Frontier[0].Interactivity, res.Frontier[len(res.Frontier)-1].Interactivity
			fr.Outside = fmt.Sprintf("%s tok/s/user is outside the reference's range (%s to %s tok/s/user): no ratio, the frontier is not extrapolated",
				DisplayNumber(*fr.Interactivity, 1), DisplayNumber(lo, 1), DisplayNumber(hi, 1))
		} else {
			fr.FrontierPerGPU = F(y)
			fr.Ratio = F(*fr.OutputPerGPU / y)
		}
	}
	if fr.Ratio == nil {
		fr.Text = upperFirst(at) + ": " + fr.Outside + "."
		return fr
	}
	fr.Text = fmt.Sprintf("Your box reaches %s of the public frontier at %s tok/s/user, %s (%s: %s output tok/s per GPU against %s on the frontier).",
		DisplayPercent(*fr.Ratio, 1), DisplayNumber(*fr.Interactivity, 1), fr.InteractivityFrom, at, DisplayNumber(*fr.OutputPerGPU, 1), DisplayNumber(*fr.FrontierPerGPU, 1))
	return fr
}

// loadWords names a matrix row by its load: "the row at 8 streams".
func loadWords(m RowResult) string {
	if !m.LoadKnown {
		return "the row of unknown load"
	}
	return "the row at " + loadText(m.Row.LoadKind, m.Load)
}

// rowInteractivity is a measured row's output speed per user, tok/s/user,
// as InferenceX plots it: 1/ITL (the time between output tokens after the
// first; its median, else its mean). Only a file with no ITL falls back to
// 1/TPOT, named with the tool's definition of TPOT, which may include the
// first token (docs/method.md, "Interactivity"). nil when neither is known
// or positive.
func rowInteractivity(r Row) (*float64, string) {
	for _, s := range []struct {
		name string
		v    *float64
	}{{"ITL median", r.ITL.P50}, {"ITL mean", r.ITL.Mean}} {
		if s.v != nil && *s.v > 0 {
			return F(OutputSpeed(*s.v)), "1/" + s.name
		}
	}
	for _, s := range []struct {
		name string
		v    *float64
	}{{"TPOT median", r.TPOT.P50}, {"TPOT mean", r.TPOT.Mean}} {
		if s.v != nil && *s.v > 0 {
			from := "1/" + s.name + " (the file has no ITL"
			if r.TPOT.Definition != "" {
				from += "; " + r.TPOT.Definition
			}
			return F(OutputSpeed(*s.v)), from + ")"
		}
	}
	return nil, ""
}

// frontier is the matched rows' upper frontier: the points that no other
// matched row beats on both interactivity and output per GPU, ordered by
// interactivity.
func frontier(rows []ReferenceMatch) []FrontierPoint {
	var pts []FrontierPoint
	for i, m := range rows {
		if m.Matched {
			pts = append(pts, FrontierPoint{Interactivity: m.Row.Interactivity, OutputPerGPU: m.Row.OutputPerGPU, Row: i})
		}
	}
	// Highest interactivity first; a point is on the frontier when it
	// serves more per GPU than every point faster per user.
	sort.SliceStable(pts, func(a, b int) bool {
		if pts[a].Interactivity != pts[b].Interactivity {
			return pts[a].Interactivity > pts[b].Interactivity
		}
		return pts[a].OutputPerGPU > pts[b].OutputPerGPU
	})
	out := []FrontierPoint{}
	best := math.Inf(-1)
	for _, p := range pts {
		if p.OutputPerGPU > best {
			out = append(out, p)
			best = p.OutputPerGPU
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// interpolate is the frontier's output per GPU at interactivity x, linear
// between its two neighbouring points; ok is false outside the points'
// range (never extrapolated).
func interpolate(f []FrontierPoint, x float64) (float64, bool) {
	if len(f) == 0 || x < f[0].Interactivity || x > f[len(f)-1].Interactivity {
		return 0, false
	}
	for i := 1; i < len(f); i++ {
		a, b := f[i-1], f[i]
		if x <= b.Interactivity {
			t := (x - a.Interactivity) / (b.Interactivity - a.Interactivity)
			return a.OutputPerGPU + t*(b.OutputPerGPU-a.OutputPerGPU), true
		}
	}
	return f[0].OutputPerGPU, true // one point, x on it
}

// box is what the report says about the box, for matching.
type box struct {
	gpu, model, precision string
	gpuText, modelText    string
	isl, osl              int
	framework             string
	percentile            float64
	data, prompts         string
	identical             bool
}

func boxTerms(c Contract, matrix []RowResult) box {
	b := box{gpuText: c.Device, modelText: c.BaselineModel, isl: c.Workload.PromptTokens, osl: c.Workload.OutputTokens,
		percentile: c.Objective.Percentile, data: c.Workload.Data, prompts: c.Workload.Prompts}
	if b.modelText == "" {
		for _, m := range matrix {
			if m.Counted && m.Row.ModelName() != "" {
				b.modelText = m.Row.ModelName()
				break
			}
		}
	}
	b.gpu = gpuFamily(b.gpuText)
	b.model = modelKey(b.modelText)
	b.precision = precisionOf(b.modelText + " " + c.Artifact)
	if c.VLLMVersion != "" {
		b.framework = "vllm"
	}
	for _, m := range matrix {
		if m.Counted && m.Row.IdenticalPrompts != nil && *m.Row.IdenticalPrompts {
			b.identical = true
		}
	}
	b.identical = b.identical || c.Workload.Prompts == "identical"
	return b
}

// match applies the matching rule to one reference row.
func (b box) match(rr ReferenceRow) ReferenceMatch {
	m := ReferenceMatch{Mismatch: []string{}, Near: []string{}}
	switch g := gpuFamily(rr.GPU); {
	case b.gpu == "":
		m.Mismatch = append(m.Mismatch, "the contract names no device to match the GPU "+rr.GPU+" with")
	case g != b.gpu:
		m.Mismatch = append(m.Mismatch, fmt.Sprintf("GPU %s, not the contract's %s", rr.GPU, b.gpuText))
	}
	switch {
	case b.model == "":
		m.Mismatch = append(m.Mismatch, "the contract names no baseline model to match "+rr.Model+" with")
	case modelKey(rr.Model) != b.model:
		m.Mismatch = append(m.Mismatch, fmt.Sprintf("model %s, not %s", rr.Model, b.modelText))
	}
	rp := precisionOf(rr.Precision + " " + rr.Model)
	switch {
	case rp == "":
		m.Near = append(m.Near, "the reference states no precision")
	case b.precision == "":
		m.Near = append(m.Near, "precision "+strings.ToUpper(rp)+" not checked: the contract's model and artifact state none")
	case rp != b.precision:
		m.Mismatch = append(m.Mismatch, fmt.Sprintf("precision %s, not %s", strings.ToUpper(rp), strings.ToUpper(b.precision)))
	}
	for _, t := range []struct {
		name      string
		ref, want int
		contract  string
	}{{"ISL", rr.ISL, b.isl, "prompt tokens"}, {"OSL", rr.OSL, b.osl, "output tokens"}} {
		switch {
		case t.want <= 0:
			m.Mismatch = append(m.Mismatch, fmt.Sprintf("the contract's workload gives no %s to match the %s of %d with", t.contract, t.name, t.ref))
		case math.Abs(float64(t.ref-t.want)) > ReferenceTolerance*float64(t.want):
			m.Mismatch = append(m.Mismatch, fmt.Sprintf("%s %d, not within %s of the contract's %d %s", t.name, t.ref, DisplayShare(ReferenceTolerance), t.want, t.contract))
		case t.ref != t.want:
			m.Near = append(m.Near, fmt.Sprintf("%s %d against the contract's %d %s", t.name, t.ref, t.want, t.contract))
		}
	}
	m.Matched = len(m.Mismatch) == 0
	return m
}

// differences names what usually explains a gap between the box and the
// frontier, from what the frontier's rows and the contract say.
func (res *ReferenceResult) differences(in Inputs, b box) []string {
	out := []string{}
	if len(res.Frontier) == 0 {
		return out
	}
	var rows []ReferenceRow
	for _, p := range res.Frontier {
		rows = append(rows, res.Rows[p.Row].Row)
	}
	anyRow := func(f func(ReferenceRow) bool) bool {
		for _, r := range rows {
			if f(r) {
				return true
			}
		}
		return false
	}
	if anyRow(func(r ReferenceRow) bool { return r.RandomIgnoreEOS }) {
		s := "The reference ran random tokens with ignore-eos: every answer runs to its full OSL, so the decode batch stays full"
		if b.data == "dataset" {
			s += "; your workload is a dataset, whose answers end where the model ends them"
		}
		out = append(out, s+".")
	}
	if anyRow(func(r ReferenceRow) bool { return r.PrefixCacheOff }) {
		s := "The reference ran with the prefix cache off"
		if b.identical {
			s += "; your prompts are identical, so your box serves them from its prefix cache and its TTFT is not comparable"
		}
		out = append(out, s+".")
	}
	if b.percentile != 0 && b.percentile != 99 {
		out = append(out, fmt.Sprintf("The reference states median and p99 latencies, no p95: its points are not judged against your p%s objective, and its p99 is not your p%s.",
			fmtNum(b.percentile), fmtNum(b.percentile)))
	}
	seen := map[string]bool{}
	for _, r := range rows {
		var ds []string
		if p := precisionOf(r.Precision + " " + r.Model); p != "" && b.precision == "" {
			ds = append(ds, "The reference ran "+strings.ToUpper(p)+"; the contract does not say the box's precision.")
		}
		if fw := strings.ToLower(strings.TrimSpace(r.Framework)); fw != "" && !strings.Contains(fw, "vllm") {
			w := "The reference ran " + r.Framework
			if b.framework != "" {
				w += "; your box runs vLLM"
			}
			ds = append(ds, w+".")
		}
		if sd := strings.ToLower(strings.TrimSpace(r.SpecDecoding)); sd != "" && sd != "none" && sd != "false" && sd != "no" {
			ds = append(ds, "The reference used speculative decoding ("+r.SpecDecoding+").")
		}
		if r.Disagg {
			ds = append(ds, "The reference disaggregated prefill and decode onto separate GPUs.")
		}
		if r.TP > 0 && float64(r.TP) != res.BoxGPUs {
			ds = append(ds, fmt.Sprintf("The reference ran tensor parallel %d; your box serves the model on %s %s.", r.TP, fmtNum(res.BoxGPUs), plural(int(math.Ceil(res.BoxGPUs)), "GPU", "GPUs")))
		}
		if r.ISL != b.isl || r.OSL != b.osl {
			ds = append(ds, fmt.Sprintf("The reference's workload is %d/%d tokens in/out; the contract's %d/%d.", r.ISL, r.OSL, b.isl, b.osl))
		}
		for _, d := range ds {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// gpuFamily is the GPU's model token: "NVIDIA H100 80GB HBM3" and
// "h100-sxm" are both "h100"; "GB200 NVL72" is "gb200". "" when the text
// names none.
func gpuFamily(s string) string {
	for _, t := range words(s) {
		if gpuToken.MatchString(t) {
			return t
		}
	}
	return ""
}

var gpuToken = regexp.MustCompile(`^[a-z]{1,3}[0-9]{2,4}[a-z]?$`)

// words splits s, lower-cased, on everything but letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// modelKey is a model name as matched: the part after the organisation,
// lower-cased, without punctuation or precision words:
// "meta-llama/Llama-3.3-70B-Instruct-FP8" is "llama3370binstruct".
func modelKey(s string) string {
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	var b strings.Builder
	for _, w := range words(s) {
		if _, ok := precisionWords[w]; !ok {
			b.WriteString(w)
		}
	}
	return b.String()
}

// precisionWords maps the words naming a precision to the precision.
var precisionWords = map[string]string{
	"fp8": "fp8", "f8": "fp8", "w8a8fp8": "fp8", "fp8dynamic": "fp8",
	"fp4": "fp4", "nvfp4": "fp4", "mxfp4": "fp4", "w4a4": "fp4",
	"bf16": "bf16", "bfloat16": "bf16", "fp16": "fp16", "float16": "fp16", "half": "fp16",
	"int8": "int8", "w8a8": "int8", "int4": "int4", "w4a16": "int4", "awq": "int4", "gptq": "int4",
}

// precisionOf is the first precision a text names, "" when none.
func precisionOf(s string) string {
	for _, w := range words(s) {
		if p, ok := precisionWords[w]; ok {
			return p
		}
	}
	return ""
}

// exitPlan fails a plan: a report whose only rows are reference rows holds
// no evidence of the box, so it cannot be approved (docs/method.md,
// "Reference rows"). It does not apply to any other report.
func exitPlan(_ Inputs, r *Result) ExitItem {
	if r.Reference == nil || !r.Reference.Plan {
		return ExitItem{}
	}
	return ExitItem{ID: "plan", Label: "Evidence from the box, not only the public frontier", Section: "imports",
		Detail: PlanRefusal}
}

// PlanRefusal says why a plan is not approvable.
const PlanRefusal = "a plan: the report holds only reference rows (the public frontier), which are never evidence; import the load test's result files of your own box before it can be approved"

// ReferenceGroup is what a reference row is listed and removed by: its
// file, or for a typed row its source.
func ReferenceGroup(rr ReferenceRow) string {
	if rr.File != "" {
		return rr.File
	}
	return "typed: " + rr.Source
}
