package xlsx

import (
	"strings"

	"capplan/planner"
)

// The sheets below show the planner's judgements as they are: they hold no
// arithmetic a reader would redo with other inputs.

func (b *book) overloadSheet() {
	s := b.sheets[shOverload]
	s.cols(34, 80)
	o := b.r.Result.Overload
	b.title(s, "Overload test")
	s.add("Recorded", yesNo(o.Recorded))
	if t := o.Test; t != nil {
		s.add("Sent above the limit", v(b.st.wrap, t.Sent))
		s.add("Outcome", t.Outcome)
		s.add("429 carried Retry-After", yesNo(t.RetryAfter))
		s.add("Worker stayed healthy", yesNo(t.WorkerHealthy))
		s.add("Recovered afterwards", yesNo(t.Recovered))
		s.add("Date", t.Date)
		s.add("Notes", v(b.st.wrap, t.Notes))
	}
	s.add(excelize_bold(b, "Verdict"), passFail(o.Pass))
	for _, r := range o.Reasons {
		s.add("Reason", v(b.st.wrap, r))
	}
	b.soakTotals(s)
}

// soakTotals adds the soak's run totals below the overload test, as the
// page shows them (docs/method.md, "Soak"): the energy and the output
// tokens per joule are live formulas of the mean power, the hours and
// the output tokens.
func (b *book) soakTotals(s *sheet) {
	sk := b.r.Result.Soak
	if !sk.Present {
		return
	}
	style := func(format string) int {
		id, err := b.fitted1(format, false)
		if err != nil {
			return b.st.num
		}
		return id
	}
	named := func(label string, cell any, name, note string) {
		row := s.next()
		s.add(label, cell, v(b.st.wrap, note))
		if name != "" {
			b.name(name, s, 2, row)
		}
	}
	s.add()
	s.add(excelize_bold(b, "Soak at the admission limit: "+sk.Source))
	named("Hours", v(b.st.int, sk.Hours), "Soak_Hours", "")
	named("Availability", v(style(`0.000%`), optOrEmpty(sk.Availability)), "", "successes / (successes + failures); deliberate 429s are neither")
	named("Accepted within the objective", v(style(`0.00%`), optOrEmpty(sk.InSLO)), "", "")
	named("Mean power (W)", v(style(`#,##0`), optOrEmpty(sk.MeanPowerW)), "Soak_Mean_Power_W", sk.MeanPowerBasis)
	named("Energy over the run (MJ)", fx(style(`#,##0.0`), `IF(Soak_Mean_Power_W="","",Soak_Mean_Power_W*Soak_Hours*3600/1000000)`, optOrEmpty(sk.EnergyMJ)), "Soak_Energy_MJ", "mean power x hours x 3,600 s")
	named("Energy over the run (kWh)", fx(style(`#,##0.00`), `IF(Soak_Energy_MJ="","",Soak_Energy_MJ/3.6)`, optOrEmpty(sk.EnergyKWh)), "Soak_Energy_KWh", "")
	named("Output tokens", v(style(`#,##0`), optOrEmpty(sk.OutputTokens)), "Soak_Output_Tokens", sk.OutputTokensBasis)
	named("Output tokens per joule over the run", fx(style(`0.00`), `IF(OR(Soak_Energy_MJ="",Soak_Output_Tokens=""),"",Soak_Output_Tokens/(Soak_Energy_MJ*1000000))`, optOrEmpty(sk.TokensPerJoule)), "Soak_Tokens_Per_Joule", "GPU board power leaves the host out: a lower bound of the energy per token")
	named("Output tokens per joule at capacity", v(style(`0.00`), optOrEmpty(sk.TokensPerJouleAtCapacity)), "", "the ceiling row's output tok/s over its watts")
}

func (b *book) candidatesSheet() {
	s := b.sheets[shCandidates]
	s.cols(24, 9, 14, 24, 8, 8, 12, 9, 30, 12, 12, 12, 11, 50, 11, 12, 14, 11, 11, 11, 30)
	cmp := b.r.Result.Candidates
	b.headers(s, "Candidate", "Baseline", "Quantization", "Regression gate", "Cases", "Gate", "Gate date", "Compared", "Excluded because",
		"Artifact (GiB)", "Loaded (GiB)", "Peak (GiB)", "Headroom", "Envelope", "Ceiling", "Req/s at ceiling", "Output tok/s at ceiling",
		"TTFT at ceiling", "Error rate", "Cold start", "Headroom from")
	for _, c := range cmp.Candidates {
		var gate, gateDate, gatePass string
		var cases any
		if c.Gate != nil {
			gate, gateDate, gatePass, cases = c.Gate.Gate, c.Gate.Date, passFail(c.Gate.Pass), c.Gate.Cases
		}
		s.add(c.Name, yesNo(c.Baseline), c.Quantization, gate, cases, gatePass, gateDate, yesNo(c.Compared), v(b.st.wrap, c.Excluded),
			v(b.st.num, opt(c.ArtifactSizeGiB)), v(b.st.num, opt(c.LoadedMemoryGiB)), v(b.st.num, opt(c.PeakMemoryGiB)), v(b.st.pct, opt(c.Headroom)),
			v(b.st.wrap, c.Envelope.Text), v(b.st.num, opt(c.Envelope.Ceiling)), v(b.st.rate, opt(c.RequestRateAtCeiling)),
			v(b.st.num, opt(c.OutputTokenRateAtCeiling)), v(b.st.secs, opt(c.TTFTAtCeiling)), v(b.st.pct, opt(c.ErrorRate)), v(b.st.secs, opt(c.ColdStartS)), c.HeadroomSource)
	}
	if len(cmp.Candidates) == 0 {
		s.add("No candidates recorded.")
	}
	s.add()
	s.add(excelize_bold(b, "Chosen"), cmp.Chosen)
	s.add(excelize_bold(b, "Decision"), v(b.st.wrap, cmp.Decision))
	for _, e := range cmp.Explanation {
		s.add("Why", v(b.st.wrap, e))
	}
}

func (b *book) residencySheet() {
	s := b.sheets[shResidency]
	s.cols(20, 30, 11, 12, 14, 12, 24, 18, 30)
	res := b.r.Result.Residency
	b.headers(s, "Route", "Model", "Residency", "Cold start", "Memory budget (GiB)", "Admitted concurrency", "Queue policy", "Owner", "Overload outcome")
	for _, rt := range res.Routes {
		s.add(rt.Name, rt.Model, rt.Residency, v(b.st.secs, opt(rt.ColdStartS)), v(b.st.num, opt(rt.MemoryBudgetGiB)), v(b.st.int, optInt(rt.AdmittedConcurrency)),
			v(b.st.wrap, rt.QueuePolicy), rt.Owner, v(b.st.wrap, rt.OverloadOutcome))
	}
	s.add()
	s.add(excelize_bold(b, "Resident (GiB)"), v(b.st.num, res.ResidentGiB))
	s.add(excelize_bold(b, "Largest switched (GiB)"), v(b.st.num, res.SwitchedGiB))
	s.add(excelize_bold(b, "Total at once (GiB)"), v(b.st.num, res.TotalGiB))
	s.add(excelize_bold(b, "Device (GiB)"), v(b.st.num, opt(res.DeviceGiB)))
	s.add(excelize_bold(b, "Headroom kept free"), v(b.st.pct, res.Headroom))
	s.add(excelize_bold(b, "Usable (GiB)"), v(b.st.num, opt(res.UsableGiB)))
	fits := "not judged"
	if res.Fits != nil {
		fits = yesNo(*res.Fits)
	}
	s.add(excelize_bold(b, "Fits"), fits)
	for _, r := range res.Reasons {
		s.add("Reason", v(b.st.wrap, r))
	}
}

func (b *book) recommendationSheet() {
	s := b.sheets[shRecommendation]
	s.cols(30, 12, 80)
	b.title(s, "Recommendation")
	rec := b.r.Result.Recommendation
	if rec == nil {
		s.add("Not written yet.")
		return
	}
	s.add("Decision (keep, change or stop)", rec.Decision)
	s.add("Owner", rec.Owner)
	s.add("Review date", rec.ReviewDate)
	s.add("Expiry", rec.Expiry)
	for _, t := range rec.Triggers {
		s.add("Reopens when", nil, v(b.st.wrap, t))
	}
	if rec.Justification != "" {
		s.add("Why this decision", nil, v(b.st.wrap, rec.Justification))
	}
	if rec.BeyondPlan != "" {
		s.add("Why the plan's boxes stand", nil, v(b.st.wrap, rec.BeyondPlan))
	}
	s.add("Notes", nil, v(b.st.wrap, rec.Notes))
	s.add()
	b.headers(s, "Non-financial gate", "Verdict", "Note")
	for _, g := range rec.Gates {
		s.add(g.Name, passFail(g.Pass), v(b.st.wrap, g.Note))
	}
}

func (b *book) exitCheckSheet() {
	s := b.sheets[shExitCheck]
	s.cols(44, 8, 90, 24)
	res := b.r.Result
	b.headers(s, "What a passing report holds", "Status", "Detail", "Fix in section")
	for _, it := range res.ExitCheck {
		s.add(it.Label, passFail(it.Pass), v(b.st.wrap, it.Detail), sectionName(it.Section))
	}
	s.add()
	s.add(excelize_bold(b, "Overall: "+exitText(res)), passFail(res.ExitPass))
}

// sectionName names a report section as the report page's headings do
// (planner.SectionTitle), for a reader of the workbook rather than by its
// anchor.
func sectionName(anchor string) string {
	if n := planner.SectionTitle(anchor); n != "" {
		return n
	}
	return anchor
}

func (b *book) sourcesSheet() {
	s := b.sheets[shSources]
	s.cols(36, 66, 14, 16, 14, 30, 12, 8, 20, 20)
	b.headers(s, "File", "sha256", "Format", "Format version", "Tool version", "Model", "Bytes", "Rows", "Imported by", "Imported at")
	srcs := b.r.Sources
	if len(srcs) == 0 {
		srcs = matrixSources(b.r.Result.Matrix)
	}
	for _, src := range srcs {
		s.add(src.File, src.SHA256, src.Format, src.FormatVersion, src.ToolVersion, src.Model, v(b.st.int, nonZero(src.SizeBytes)), v(b.st.int, nonZero(int64(src.Rows))), src.ImportedBy, stamp(src.ImportedAt))
	}
	if len(srcs) == 0 {
		s.add("No files imported.")
	}
}

// matrixSources lists the distinct files the matrix rows came from.
func matrixSources(m []planner.RowResult) []Source {
	var out []Source
	seen := map[string]int{}
	for _, rr := range m {
		key := rr.Source.SHA256 + "\x00" + rr.Source.File
		if i, ok := seen[key]; ok {
			out[i].Rows++
			continue
		}
		seen[key] = len(out)
		out = append(out, Source{File: rr.Source.File, SHA256: rr.Source.SHA256, Format: rr.Source.Format,
			FormatVersion: rr.Source.FormatVersion, ToolVersion: rr.Source.ToolVersion, Model: rr.Row.Model, Rows: 1})
	}
	return out
}

func nonZero(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

func (b *book) historySheet() {
	s := b.sheets[shHistory]
	s.cols(20, 24, 30, 16, 50, 50)
	b.headers(s, "When", "Who", "What", "Section", "Before", "After")
	for _, h := range b.r.History {
		s.add(stamp(h.At), h.User, v(b.st.wrap, h.Action), h.Section, v(b.st.wrap, clip(h.Before)), v(b.st.wrap, clip(h.After)))
	}
}

// clip keeps a cell under Excel's 32,767-character limit.
func clip(s string) string {
	const max = 32000
	if len(s) <= max {
		return s
	}
	return strings.ToValidUTF8(s[:max], "") + " …"
}
