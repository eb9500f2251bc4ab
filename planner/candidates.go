package planner

import "fmt"

// RegressionGate is the record of the fixed task regression set a model
// variant must pass before its speed is compared at all: which gate, how many
// cases, the outcome and the date.
type RegressionGate struct {
	Gate  string `json:"gate"`
	Cases int    `json:"cases"`
	Pass  bool   `json:"pass"`
	Date  string `json:"date"` // YYYY-MM-DD
}

// Candidate is one model variant under consideration: the baseline, or a
// quantized or reconfigured variant, with its regression gate record, its
// fit figures and its own matrix from the identical workload.
type Candidate struct {
	Name         string `json:"name"`
	Baseline     bool   `json:"baseline"`
	Model        string `json:"model"`
	Artifact     string `json:"artifact"`
	ArtifactHash string `json:"artifact_hash"`
	// Quantization or runtime change, e.g. "fp8", "awq-int4",
	// "kv-cache fp8"; empty for the baseline.
	Quantization    string          `json:"quantization"`
	Gate            *RegressionGate `json:"gate"`
	ArtifactSizeGiB *float64        `json:"artifact_size_gib"`
	LoadedMemoryGiB *float64        `json:"loaded_memory_gib"`
	ColdStartS      *float64        `json:"cold_start_s"`
	// Rows is the candidate's matrix; a baseline with none uses Inputs.Rows.
	Rows  []Row  `json:"rows"`
	Notes string `json:"notes,omitempty"`
}

// CandidateResult is one column of the candidate comparison: fit, envelope,
// speed at the ceiling, errors and cold start.
type CandidateResult struct {
	Name         string `json:"name"`
	Baseline     bool   `json:"baseline"`
	Quantization string `json:"quantization"`
	// GatePassed is true only when a gate was recorded and passed.
	GatePassed bool            `json:"gate_passed"`
	Gate       *RegressionGate `json:"gate"`
	// Compared is false for candidates excluded from the comparison;
	// Excluded says why ("no regression gate recorded", "failed gate ...").
	Compared bool   `json:"compared"`
	Excluded string `json:"excluded,omitempty"`

	ArtifactSizeGiB *float64 `json:"artifact_size_gib"`
	LoadedMemoryGiB *float64 `json:"loaded_memory_gib"`
	// PeakMemoryGiB and Headroom are the worst (highest memory, lowest
	// headroom) observed over the candidate's rows up to its ceiling.
	// Both are the rows' resolved figures (Row.Measured); HeadroomSource
	// and PeakMemorySource name where the worst came from.
	PeakMemoryGiB    *float64 `json:"peak_memory_gib"`
	PeakMemorySource string   `json:"peak_memory_source,omitempty"`
	Headroom         *float64 `json:"headroom"`
	HeadroomSource   string   `json:"headroom_source,omitempty"`
	Envelope         Envelope `json:"envelope"`
	// Figures of the ceiling row (nil without a ceiling).
	RequestRateAtCeiling     *float64 `json:"request_rate_at_ceiling"`
	OutputTokenRateAtCeiling *float64 `json:"output_token_rate_at_ceiling"`
	TTFTAtCeiling            *float64 `json:"ttft_at_ceiling_s"` // at the objective's percentile
	// ErrorRate is errored / (successful + errored) over the candidate's
	// counted rows: a row of another model, load kind or workload is shown
	// in its matrix but is not its evidence, so its errors are not its.
	ErrorRate  *float64    `json:"error_rate"`
	ColdStartS *float64    `json:"cold_start_s"`
	Matrix     []RowResult `json:"matrix"`
}

// Comparison is the side-by-side of gate-passing candidates and the decision.
// The chosen candidate is the gate-passing one with the highest ceiling;
// ties go to the smaller peak memory.
type Comparison struct {
	Candidates []CandidateResult `json:"candidates"`
	// Chosen is the chosen candidate's name, "" when none qualifies.
	Chosen string `json:"chosen"`
	// Decision reads "candidate Q fits with X observed headroom and meets
	// the objective through load Y", or says why nothing was chosen.
	Decision string `json:"decision"`
	// Explanation gives the reasons for the choice.
	Explanation []string `json:"explanation"`
}

// CompareCandidates judges each candidate's matrix, excludes those without a
// passing regression gate, and chooses among the rest: the highest ceiling,
// ties to the smaller peak memory. baseRows is the report's matrix, used for
// a baseline candidate without rows of its own.
func CompareCandidates(cs []Candidate, baseRows []Row, c Contract, o Objective) Comparison {
	var cmp Comparison
	for _, cd := range cs {
		rows := cd.Rows
		if len(rows) == 0 && cd.Baseline {
			rows = baseRows
		}
		want := cd.Model
		if want == "" && cd.Baseline {
			want = c.BaselineModel
		}
		m, env := JudgeMatrix(rows, c, o, want)
		cr := CandidateResult{
			Name: cd.Name, Baseline: cd.Baseline, Quantization: cd.Quantization, Gate: cd.Gate,
			ArtifactSizeGiB: cd.ArtifactSizeGiB, LoadedMemoryGiB: cd.LoadedMemoryGiB, ColdStartS: cd.ColdStartS,
			Envelope: env, Matrix: m,
		}
		switch {
		case cd.Gate == nil:
			cr.Excluded = "no regression gate recorded"
		case !cd.Gate.Pass:
			cr.Excluded = fmt.Sprintf("failed regression gate %s (%d cases, %s)", cd.Gate.Gate, cd.Gate.Cases, cd.Gate.Date)
		default:
			cr.GatePassed = true
			cr.Compared = true
		}
		fitFigures(&cr, m)
		if env.CeilingRow != nil {
			r := m[*env.CeilingRow].Row
			cr.RequestRateAtCeiling = r.RequestRate
			cr.OutputTokenRateAtCeiling = r.OutputTokenRate
			cr.TTFTAtCeiling = r.TTFT.Percentile(o.Percentile)
		}
		cmp.Candidates = append(cmp.Candidates, cr)
	}
	choose(&cmp, o)
	return cmp
}

// fitFigures fills the worst peak memory and headroom over the rows in the
// envelope (all rows when there is none), and the error rate over the
// counted rows (those that match the contract and the candidate's model).
func fitFigures(cr *CandidateResult, m []RowResult) {
	inEnv := false
	for _, rr := range m {
		inEnv = inEnv || rr.InEnvelope
	}
	var ok, bad int
	for _, rr := range m {
		if rr.Counted && rr.Row.Successful != nil && rr.Row.Errored != nil {
			ok += *rr.Row.Successful
			bad += *rr.Row.Errored
		}
		if inEnv && !rr.InEnvelope {
			continue
		}
		if p := rr.PeakMemoryGiB; p != nil && (cr.PeakMemoryGiB == nil || *p > *cr.PeakMemoryGiB) {
			cr.PeakMemoryGiB, cr.PeakMemorySource = F(*p), rr.MemoryHeadroomSource
		}
		if h := rr.MemoryHeadroom; h != nil && (cr.Headroom == nil || *h < *cr.Headroom) {
			cr.Headroom, cr.HeadroomSource = F(*h), rr.MemoryHeadroomSource
		}
	}
	if ok+bad > 0 {
		cr.ErrorRate = F(float64(bad) / float64(ok+bad))
	}
}

// choose picks the gate-passing candidate with the highest ceiling; ties go
// to the smaller peak memory (unknown memory loses the tie), then the baseline.
func choose(cmp *Comparison, o Objective) {
	best := -1
	better := func(a, b CandidateResult) bool {
		if *a.Envelope.Ceiling != *b.Envelope.Ceiling {
			return *a.Envelope.Ceiling > *b.Envelope.Ceiling
		}
		am, bm := a.PeakMemoryGiB, b.PeakMemoryGiB
		if (am == nil) != (bm == nil) {
			return am != nil
		}
		if am != nil && *am != *bm {
			return *am < *bm
		}
		return a.Baseline && !b.Baseline
	}
	for i, cr := range cmp.Candidates {
		switch {
		case !cr.Compared:
			cmp.Explanation = append(cmp.Explanation, fmt.Sprintf("%s is not compared: %s", cr.Name, cr.Excluded))
			continue
		case cr.Envelope.Ceiling == nil:
			cmp.Explanation = append(cmp.Explanation, fmt.Sprintf("%s passed its gate but has no envelope: %s", cr.Name, cr.Envelope.Text))
			continue
		}
		cmp.Explanation = append(cmp.Explanation, fmt.Sprintf("%s: %s, peak memory %s", cr.Name, cr.Envelope.Text, gib(cr.PeakMemoryGiB)))
		if best < 0 || better(cr, cmp.Candidates[best]) {
			best = i
		}
	}
	if best < 0 {
		if len(cmp.Candidates) == 0 {
			cmp.Decision = "no candidates recorded"
		} else {
			cmp.Decision = "no candidate both passed its regression gate and demonstrated an envelope"
		}
		return
	}
	b := cmp.Candidates[best]
	cmp.Chosen = b.Name
	head := "unrecorded"
	if b.Headroom != nil {
		head = fmtPct(*b.Headroom)
	}
	through := loadText(b.Envelope.LoadKind, *b.Envelope.Ceiling)
	if b.Envelope.State == EnvelopeLowerBound {
		through = "at least " + through
	}
	cmp.Decision = fmt.Sprintf("candidate %s fits with %s observed headroom and meets the objective through load %s", b.Name, head, through)
	if b.HeadroomSource != "" {
		cmp.Decision += " (headroom " + b.HeadroomSource + ")"
	}
	cmp.Explanation = append(cmp.Explanation, fmt.Sprintf("chosen: %s, the highest ceiling among gate-passing candidates (ties go to the smaller peak memory)", b.Name))
}

func gib(v *float64) string {
	if v == nil {
		return "unrecorded"
	}
	return fmtNum(*v) + " GiB"
}
