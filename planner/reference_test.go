package planner

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// refRow is an InferenceX-shaped reference row for an H100 serving
// Llama 3.3 70B in FP8 at 1024/1024 tokens.
func refRow(intvty, perGPU float64) ReferenceRow {
	return ReferenceRow{Source: "InferenceX agg_bmk.json", Date: "2026-11-20", Format: "inferencex-json",
		GPU: "h100", Model: "Llama-3.3-70B-Instruct", Framework: "vllm", Precision: "fp8", SpecDecoding: "none",
		ISL: 1024, OSL: 1024, TP: 2, Interactivity: intvty, OutputPerGPU: perGPU,
		RandomIgnoreEOS: true, PrefixCacheOff: true}
}

// refContract is the contract the worked example of docs/method.md
// ("Reference rows") is matched against.
func refContract() Contract {
	c := testContract()
	c.Device = "NVIDIA H100 80GB HBM3"
	c.BaselineModel = "meta-llama/Llama-3.3-70B-Instruct"
	c.Artifact = "Llama-3.3-70B-Instruct-FP8"
	c.Workload.PromptTokens, c.Workload.OutputTokens = 1000, 1000
	return c
}

// refRows are the worked example's reference rows: A, B and C on the
// frontier, D beaten by B on both axes, E another GPU, F another ISL.
func refRows() []ReferenceRow {
	e := refRow(60, 2000)
	e.GPU = "H200"
	f := refRow(60, 2000)
	f.ISL = 8192
	return []ReferenceRow{refRow(20, 1500), refRow(40, 1000), refRow(80, 400), refRow(30, 900), e, f}
}

func TestReferenceWorkedExample(t *testing.T) {
	in := demoInputs()
	in.Contract = refContract()
	for i := range in.Rows {
		in.Rows[i].Model = "meta-llama/Llama-3.3-70B-Instruct"
		in.Rows[i].PromptTokensMean, in.Rows[i].OutputTokensMean = F(1000), F(1000)
		in.Rows[i].ITL = Stat{P50: F(0.01)} // 100 tok/s/user: outside the range
	}
	// The ceiling row (8 streams): ITL median 20 ms is 50 tok/s/user, the
	// output speed InferenceX plots; its TPOT, which includes the first
	// token, is 22.5 ms (44.4 tok/s/user) and is not used. 1,600 output
	// tok/s on 2 GPUs is 800 per GPU.
	in.Rows[3].ITL = Stat{P50: F(0.02), Mean: F(0.021)}
	in.Rows[3].TPOT = Stat{P50: F(0.0225), Definition: "GuideLLM 0.4+ TPOT: includes TTFT"}
	in.Rows[3].OutputTokenRate = F(1600)
	in.Reference = &ReferenceInput{Rows: refRows()}
	in.SelfHosted.GPUsPerBox = Fig("2", "GPUs", "spec sheet", evDate)
	r := Compute(in)
	rf := r.Reference
	if rf == nil || rf.Plan {
		t.Fatalf("reference = %+v", rf)
	}
	if rf.Matched != 4 {
		t.Errorf("matched %d, want 4 (A to D)", rf.Matched)
	}
	if !strings.Contains(strings.Join(rf.Rows[4].Mismatch, ";"), "GPU H200") || !strings.Contains(strings.Join(rf.Rows[5].Mismatch, ";"), "ISL 8192") {
		t.Errorf("mismatches: %v / %v", rf.Rows[4].Mismatch, rf.Rows[5].Mismatch)
	}
	if !strings.Contains(strings.Join(rf.Rows[0].Near, ";"), "ISL 1024 against the contract's 1000") {
		t.Errorf("near: %v", rf.Rows[0].Near)
	}
	var xs []float64
	for _, p := range rf.Frontier {
		xs = append(xs, p.Interactivity)
	}
	if len(xs) != 3 || xs[0] != 20 || xs[1] != 40 || xs[2] != 80 {
		t.Errorf("frontier at %v, want 20, 40, 80 (D at 30 is beaten by B)", xs)
	}
	// 850 = 1000 + (50-40)/(80-40) × (400-1000); 800/850 = 94.1 %.
	if rf.Ratio == nil || rf.Ratio.Ratio == nil {
		t.Fatalf("no ratio at the ceiling: %+v", rf.Ratio)
	}
	if got := *rf.Ratio.FrontierPerGPU; math.Abs(got-850) > 1e-9 {
		t.Errorf("frontier at 50 = %v, want 850", got)
	}
	if got := *rf.Ratio.Ratio; math.Abs(got-800.0/850) > 1e-12 {
		t.Errorf("ratio = %v", got)
	}
	want := "Your box reaches 94.1 % of the public frontier at 50.0 tok/s/user, 1/ITL median (the row at 8 concurrent streams: 800.0 output tok/s per GPU against 850.0 on the frontier)."
	if rf.Text != want || r.Headline.Reference == nil || r.Headline.Reference.Text != want {
		t.Errorf("text = %q\nwant   %q", rf.Text, want)
	}
	if rf.Ratio.InteractivityFrom != "1/ITL median" {
		t.Errorf("interactivity from %q", rf.Ratio.InteractivityFrom)
	}
	// Every other counted row runs at 100 tok/s/user: outside 20 to 80.
	outside := 0
	for _, fr := range rf.Ratios {
		if fr.Ratio == nil {
			outside++
			if !strings.Contains(fr.Outside, "outside the reference's range (20.0 to 80.0 tok/s/user)") {
				t.Errorf("outside: %q", fr.Outside)
			}
		}
	}
	if outside != len(rf.Ratios)-1 {
		t.Errorf("%d of %d rows outside", outside, len(rf.Ratios))
	}
	all := strings.Join(rf.Differences, "\n")
	if strings.Contains(all, "tensor parallel") {
		t.Errorf("TP equal to the box's GPUs named as a difference:\n%s", all)
	}
	for _, w := range []string{"ignore-eos", "prefix cache off", "no p95", "p95 objective", "1024/1024 tokens in/out; the contract's 1000/1000"} {
		if !strings.Contains(all, w) {
			t.Errorf("differences lack %q:\n%s", w, all)
		}
	}
	if r.Headline.Reference.Plan || strings.HasPrefix(r.Headline.Line, "Plan") {
		t.Errorf("a measured report headlined as a plan: %q", r.Headline.Line)
	}
}

func TestReferenceDifferencesFromTheRows(t *testing.T) {
	in := demoInputs()
	in.Contract = refContract()
	in.Contract.Artifact = "llama-70b" // no precision stated
	in.Contract.Workload.Data, in.Contract.Workload.Prompts = "dataset", "identical"
	a := refRow(20, 1500)
	a.Framework, a.SpecDecoding, a.Disagg, a.TP = "sglang", "mtp", true, 8
	in.Reference = &ReferenceInput{Rows: []ReferenceRow{a, refRow(80, 400)}}
	rf := Compute(in).Reference
	all := strings.Join(rf.Differences, "\n")
	for _, w := range []string{"your workload is a dataset", "your prompts are identical", "ran FP8; the contract does not say",
		"ran sglang; your box runs vLLM", "speculative decoding (mtp)", "disaggregated prefill and decode", "tensor parallel 8; your box serves the model on 1 GPU"} {
		if !strings.Contains(all, w) {
			t.Errorf("differences lack %q:\n%s", w, all)
		}
	}
	if !strings.Contains(strings.Join(rf.Rows[0].Near, ";"), "precision FP8 not checked") {
		t.Errorf("near: %v", rf.Rows[0].Near)
	}
	// A typed row says nothing of its data or cache: nothing is named.
	typed := refRow(20, 1500)
	typed.RandomIgnoreEOS, typed.PrefixCacheOff = false, false
	in.Reference = &ReferenceInput{Rows: []ReferenceRow{typed}}
	in.Contract.Objective.Percentile = 99
	for _, d := range Compute(in).Reference.Differences {
		if strings.Contains(d, "ignore-eos") || strings.Contains(d, "prefix cache") || strings.Contains(d, "p95") {
			t.Errorf("difference the rows do not say: %q", d)
		}
	}
}

func TestReferenceMatching(t *testing.T) {
	b := boxTerms(refContract(), nil)
	for _, tc := range []struct {
		name string
		edit func(*ReferenceRow)
		ok   bool
	}{
		{"same", func(*ReferenceRow) {}, true},
		{"hw with form factor", func(r *ReferenceRow) { r.GPU = "h100-sxm" }, true},
		{"gb200 is not b200", func(r *ReferenceRow) { r.GPU = "gb200" }, false},
		{"model with organisation and precision", func(r *ReferenceRow) { r.Model = "nvidia/Llama-3.3-70B-Instruct-FP8" }, true},
		{"other model", func(r *ReferenceRow) { r.Model = "Llama-3.1-8B-Instruct" }, false},
		{"other precision", func(r *ReferenceRow) { r.Precision = "fp4" }, false},
		{"nvfp4 is fp4", func(r *ReferenceRow) { r.Precision = "nvfp4" }, false},
		{"ISL 10 % off", func(r *ReferenceRow) { r.ISL = 1100 }, true},
		{"ISL past 10 %", func(r *ReferenceRow) { r.ISL = 1101 }, false},
		{"OSL past 10 %", func(r *ReferenceRow) { r.OSL = 899 }, false},
	} {
		rr := refRow(20, 1000)
		tc.edit(&rr)
		if m := b.match(rr); m.Matched != tc.ok {
			t.Errorf("%s: matched %v, want %v (%v)", tc.name, m.Matched, tc.ok, m.Mismatch)
		}
	}
	if m := boxTerms(Contract{}, nil).match(refRow(20, 1000)); m.Matched || len(m.Mismatch) != 4 {
		t.Errorf("an empty contract matches: %v", m.Mismatch)
	}
}

func TestReferenceFrontierInterpolation(t *testing.T) {
	f := frontier([]ReferenceMatch{
		{Row: refRow(10, 2000), Matched: true}, {Row: refRow(10, 1800), Matched: true},
		{Row: refRow(50, 500), Matched: true}, {Row: refRow(30, 100), Matched: true},
		{Row: refRow(40, 5000), Matched: false},
	})
	if len(f) != 2 || f[0].OutputPerGPU != 2000 || f[1].Interactivity != 50 {
		t.Fatalf("frontier = %+v", f)
	}
	for _, tc := range []struct{ x, y float64 }{{10, 2000}, {50, 500}, {30, 1250}} {
		if y, ok := interpolate(f, tc.x); !ok || math.Abs(y-tc.y) > 1e-9 {
			t.Errorf("at %v: %v %v, want %v", tc.x, y, ok, tc.y)
		}
	}
	for _, x := range []float64{9.99, 50.01} {
		if _, ok := interpolate(f, x); ok {
			t.Errorf("extrapolated at %v", x)
		}
	}
	one := frontier([]ReferenceMatch{{Row: refRow(10, 2000), Matched: true}})
	if y, ok := interpolate(one, 10); !ok || y != 2000 {
		t.Errorf("one point: %v %v", y, ok)
	}
}

func TestReferencePlanIsNotApprovable(t *testing.T) {
	in := demoInputs()
	in.Contract = refContract()
	in.Rows = nil
	in.Reference = &ReferenceInput{Rows: refRows()}
	r := Compute(in)
	if r.Reference == nil || !r.Reference.Plan {
		t.Fatal("reference rows only is not a plan")
	}
	if r.ExitPass || len(r.ExitCheck) == 0 || r.ExitCheck[0].ID != "plan" || r.ExitCheck[0].Pass || r.ExitCheck[0].Detail != PlanRefusal {
		t.Errorf("exit check of a plan: pass %v, first %+v", r.ExitPass, r.ExitCheck[0])
	}
	if !strings.HasPrefix(r.Headline.Line, "Plan (public frontier only, not evidence) · ") || !r.Headline.Reference.Plan {
		t.Errorf("headline line %q", r.Headline.Line)
	}
	want := "A plan: the public frontier for this GPU, model and workload runs from 1,500.0 output tok/s per GPU at 20.0 tok/s/user to 400.0 at 80.0 tok/s/user; no measurement of the box yet."
	if r.Reference.Text != want {
		t.Errorf("plan text %q", r.Reference.Text)
	}
	if r.Envelope.State != EnvelopeNoRows || r.Capacity.PerBoxRate != nil || r.Admission.MaxInFlight != nil {
		t.Errorf("reference rows reached the envelope %s, capacity %v or admission %v", r.Envelope.State, r.Capacity.PerBoxRate, r.Admission.MaxInFlight)
	}
}

// stripReference removes the reference-only fields from a serialised
// Result: the top-level "reference" and the headline's.
func stripReference(t *testing.T, b []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "reference")
	var h map[string]json.RawMessage
	if err := json.Unmarshal(m["headline"], &h); err != nil {
		t.Fatal(err)
	}
	delete(h, "reference")
	hb, _ := json.Marshal(h)
	m["headline"] = hb
	out, _ := json.Marshal(m)
	return out
}

// TestReferenceRowsChangeNothingElse adds a reference row at every load of
// the demo report, matched and on its frontier, and compares the computed
// reports byte for byte but for the reference-only fields.
func TestReferenceRowsChangeNothingElse(t *testing.T) {
	in := demoInputs()
	base, err := json.Marshal(Compute(in))
	if err != nil {
		t.Fatal(err)
	}
	var refs []ReferenceRow
	for i, row := range in.Rows {
		rr := refRow(float64(100-10*i), 5000-400*float64(i))
		rr.GPU, rr.Model, rr.ISL, rr.OSL, rr.Precision = in.Contract.Device, in.Contract.BaselineModel, 256, 128, ""
		rr.Concurrency = row.Load
		refs = append(refs, rr)
	}
	in.Reference = &ReferenceInput{Rows: refs}
	r := Compute(in)
	if r.Reference == nil || r.Reference.Matched != len(refs) || len(r.Reference.Ratios) == 0 {
		t.Fatalf("the reference rows were not matched: %+v", r.Reference)
	}
	with, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(base, with) {
		t.Fatal("the reference rows left no trace")
	}
	if a, b := stripReference(t, base), stripReference(t, with); !bytes.Equal(a, b) {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Errorf("the report changed beyond its reference fields at byte %d:\n%s\n%s", i, a[max(0, i-80):min(len(a), i+80)], b[max(0, i-80):min(len(b), i+80)])
	}
}
