package xlsx

import (
	"fmt"
	"sort"
	"strings"

	"capplan/planner"
)

// Matrix columns (1-based). The checks, the verdict and the envelope are
// formulas over the row's figures and the objective's named cells.
const (
	colLoad = iota + 1
	colKind
	colModel
	colAttempted
	colSuccessful
	colErrored
	colIncomplete
	colDuration
	colRequestRate
	colAchievedRate
	colAchievedConc
	colOutputTokRate
	colPromptMean
	colOutputMean
	colTTFT50
	colTTFT95
	colTTFT99
	colE2E50
	colE2E95
	colE2E99
	colTPOT50
	colTPOT95
	colTPOT99
	colITL50
	colITL95
	colITL99
	colHeadroom
	colPeakMem
	colPower
	colOOM
	colRestart
	colOOMChecked
	colStopped
	colCounted
	colInconclusive
	colSuccessRate
	colCapacityRate
	colChkSuccess
	colChkTTFT
	colChkE2E
	colChkTPOT
	colChkITL
	colChkHeadroom
	colChkOOM
	colVerdict
	colInEnvelope
	colSummary
	colNonMonotone
	colNotCounted
	colWarnings
	colFile
	colSHA
	colPaths
	colMeasuredFrom
	colSuccessLow
	colSuccessHigh
	colTTFTLower
	colTTFTUpper
	colE2ELower
	colE2EUpper
	colTPOTLower
	colTPOTUpper
	colITLLower
	colITLUpper
	colBounds
	colLast = colBounds
)

func (b *book) matrixSheet() {
	s := b.sheets[shMatrix]
	widths := make([]float64, colLast)
	for i := range widths {
		widths[i] = 11
	}
	widths[colKind-1], widths[colModel-1] = 12, 28
	widths[colNotCounted-1] = 40
	widths[colSummary-1], widths[colWarnings-1], widths[colFile-1], widths[colSHA-1], widths[colPaths-1], widths[colMeasuredFrom-1] = 40, 40, 30, 20, 40, 40
	widths[colBounds-1] = 60
	s.cols(widths...)
	tpotHeader := "TPOT check"
	if b.r.Result.Objective.TPOTAsSpeed {
		// An output-speed floor is judged on the ITL (docs/method.md,
		// "Interactivity").
		tpotHeader = "Output speed check (on ITL)"
	}
	b.headers(s, "Load", "Load kind", "Model", "Attempted", "Successful", "Errored", "Incomplete", "Duration", "Requests/s", "Achieved req/s",
		"Achieved concurrency", "Output tokens/s", "Prompt tokens (mean)", "Output tokens (mean)",
		"TTFT p50", "TTFT p95", "TTFT p99", "End-to-end p50", "End-to-end p95", "End-to-end p99",
		"TPOT p50", "TPOT p95", "TPOT p99", "ITL p50", "ITL p95", "ITL p99",
		"Memory headroom", "Peak memory (GiB)", "Power (W)", "OOM", "Restart", "Checked: no OOM or restart", "Stopped", "Counted",
		"Inconclusive (passed on weak evidence)", "Success rate", "Successful req/s for capacity", "Success check", "TTFT check", "End-to-end check", tpotHeader, "ITL check",
		"Headroom check", "No-OOM check", "Verdict", "In envelope", "Planner's verdict", "Non-monotone", "Not counted because", "Warnings", "File", "sha256", "Paths in the file",
		"Headroom, peak memory and power from",
		"Success rate, CI lower", "Success rate, CI upper",
		"TTFT percentile, lower bound", "TTFT percentile, upper bound", "End-to-end percentile, lower bound", "End-to-end percentile, upper bound",
		"TPOT percentile, lower bound", "TPOT percentile, upper bound", "ITL percentile, lower bound", "ITL percentile, upper bound",
		"Confidence of the verdict")

	pctl := func(c50, c95, c99, r int) string {
		return fmt.Sprintf(`IF(Objective_Percentile=50,%s,IF(Objective_Percentile=95,%s,IF(Objective_Percentile=99,%s,"")))`, rel(c50, r), rel(c95, r), rel(c99, r))
	}
	latency := func(bound string, c50, c95, c99, r int) string {
		m := pctl(c50, c95, c99, r)
		return fmt.Sprintf(`IF(%[1]s="","",IF(%[2]s="","missing",IF(%[2]s<=%[1]s,"pass","fail")))`, bound, m)
	}
	// A row is in the envelope by the planner's rule (docs/method.md,
	// "Weak evidence"): it counts or passed on weak evidence (it matches
	// the contract: the planner decides), it is of the envelope's kind of
	// load, it passes, its load is below the lowest load where a counted
	// row does not pass (a measured failure counts whatever its sample),
	// and a counted row passes at its load or above, below that failure (a
	// conclusive pass covers every level below it). When no counted row
	// passes below the first failure, every pass below it is in, on weak
	// evidence.
	n := len(b.r.Result.Matrix)
	envKinds := []string{string(b.r.Result.Envelope.LoadKind)}
	if b.r.Result.Envelope.LoadKind == planner.LoadConcurrency {
		envKinds = append(envKinds, string(planner.LoadSynchronous))
	}
	kindOK := func(r int) string {
		terms := make([]string, len(envKinds))
		for i, k := range envKinds {
			terms[i] = fmt.Sprintf(`%s="%s"`, rel(colKind, r), k)
		}
		return "OR(" + strings.Join(terms, ",") + ")"
	}
	// An output-speed floor is judged against the ITL, the definition of
	// output speed per user (docs/method.md, "Interactivity").
	tpotCheck := func(r int) string {
		if b.r.Result.Objective.TPOTAsSpeed {
			return latency("Objective_TPOT_Max_S", colITL50, colITL95, colITL99, r)
		}
		return latency("Objective_TPOT_Max_S", colTPOT50, colTPOT95, colTPOT99, r)
	}
	loads, counted, verdicts := s.rng(colLoad, 2, n+1), s.rng(colCounted, 2, n+1), s.rng(colVerdict, 2, n+1)
	// firstFail is the lowest load of a counted row that does not pass,
	// 1E+300 when none.
	firstFail := fmt.Sprintf(`IF(COUNTIFS(%[2]s,TRUE,%[3]s,"<>pass",%[1]s,"<>")=0,1E+300,_xlfn.MINIFS(%[1]s,%[2]s,TRUE,%[3]s,"<>pass",%[1]s,"<>"))`, loads, counted, verdicts)
	inEnvelope := func(r int) string {
		conclusiveAbove := fmt.Sprintf(`COUNTIFS(%[1]s,">="&%[4]s,%[1]s,"<"&%[5]s,%[2]s,TRUE,%[3]s,"pass")>0`, loads, counted, verdicts, rel(colLoad, r), firstFail)
		noneConclusive := fmt.Sprintf(`COUNTIFS(%[1]s,"<"&%[4]s,%[2]s,TRUE,%[3]s,"pass")=0`, loads, counted, verdicts, firstFail)
		return fmt.Sprintf(`AND(%s<>"",OR(%s,%s),%s,%s="pass",%s<%s,OR(%s,%s))`,
			rel(colLoad, r), rel(colCounted, r), rel(colInconclusive, r), kindOK(r), rel(colVerdict, r), rel(colLoad, r), firstFail, conclusiveAbove, noneConclusive)
	}
	for i, rr := range b.r.Result.Matrix {
		r := i + 2
		row := rr.Row
		checks := map[string]string{}
		for _, c := range rr.Verdict.Checks {
			switch {
			case c.Pass == nil && c.Criterion == "no_oom":
				checks[c.Criterion] = "unknown" // not recorded: shown, but it does not stop the verdict
			case c.Pass == nil:
				checks[c.Criterion] = "missing"
			default:
				checks[c.Criterion] = passFail(*c.Pass)
			}
		}
		var load any
		if rr.LoadKnown {
			load = rr.Load
		}
		capRate := planner.SuccessfulRate(row)
		cells := []any{
			v(b.st.num, load), string(row.LoadKind), modelCell(row),
			v(b.st.int, optInt(row.Attempted)), v(b.st.int, optInt(row.Successful)), v(b.st.int, optInt(row.Errored)), v(b.st.int, optInt(row.Incomplete)),
			v(b.st.secs, opt(row.DurationS)), v(b.st.rate, opt(row.RequestRate)), v(b.st.rate, opt(row.AchievedRate)),
			v(b.st.num, opt(row.AchievedConcurrency)), v(b.st.num, opt(row.OutputTokenRate)),
			v(b.st.num, opt(row.PromptTokensMean)), v(b.st.num, opt(row.OutputTokensMean)),
			v(b.st.secs, opt(row.TTFT.P50)), v(b.st.secs, opt(row.TTFT.P95)), v(b.st.secs, opt(row.TTFT.P99)),
			v(b.st.secs, opt(row.E2E.P50)), v(b.st.secs, opt(row.E2E.P95)), v(b.st.secs, opt(row.E2E.P99)),
			v(b.st.secs, opt(row.TPOT.P50)), v(b.st.secs, opt(row.TPOT.P95)), v(b.st.secs, opt(row.TPOT.P99)),
			v(b.st.secs, opt(row.ITL.P50)), v(b.st.secs, opt(row.ITL.P95)), v(b.st.secs, opt(row.ITL.P99)),
			// The row's resolved headroom, peak memory and power, as the
			// page shows them: the GPU log's over the typed (docs/method.md,
			// "Measured figures of a row"); the checks below read them.
			v(b.st.pct, opt(rr.MemoryHeadroom)), v(b.st.num, opt(rr.PeakMemoryGiB)), v(b.st.num, opt(rr.PowerWattsMean)),
			row.Observed.OOM, row.Observed.Restart, row.Observed.OOMChecked, row.Observed.Stopped, rr.Counted, rr.Inconclusive,
			fx(b.st.pct, fmt.Sprintf(`IF(%[1]s="","",IF(%[2]s="","",IF(%[1]s+%[2]s<=0,"",%[1]s/(%[1]s+%[2]s))))`, rel(colSuccessful, r), rel(colErrored, r)), optOrEmpty(rr.SuccessRate)),
			// The successful req/s, as planner.SuccessfulRate: the file's
			// request rate, else the achieved rate, else successes over the
			// duration, else a rate run's set rate times the success rate.
			fx(b.st.rate, fmt.Sprintf(`IF(%[1]s<>"",%[1]s,IF(%[2]s<>"",%[2]s,IF(AND(%[3]s<>"",N(%[4]s)>0),%[3]s/%[4]s,IF(AND(%[5]s="rate",%[6]s<>"",%[7]s<>""),%[7]s*%[6]s,""))))`,
				rel(colRequestRate, r), rel(colAchievedRate, r), rel(colSuccessful, r), rel(colDuration, r), rel(colKind, r), rel(colSuccessRate, r), rel(colLoad, r)), optOrEmpty(capRate)),
			fx(0, fmt.Sprintf(`IF(OR(%[1]s="",%[2]s=""),"missing",IF(%[1]s+%[2]s<=0,"fail",IF(%[1]s/(%[1]s+%[2]s)>=Objective_Min_Success,"pass","fail")))`, rel(colSuccessful, r), rel(colErrored, r)), checks["success"]),
			fx(0, latency("Objective_TTFT_Max_S", colTTFT50, colTTFT95, colTTFT99, r), checks["ttft"]),
			fx(0, latency("Objective_E2E_Max_S", colE2E50, colE2E95, colE2E99, r), checks["e2e"]),
			fx(0, tpotCheck(r), checks["tpot"]),
			fx(0, latency("Objective_ITL_Max_S", colITL50, colITL95, colITL99, r), checks["itl"]),
			fx(0, fmt.Sprintf(`IF(Objective_Min_Headroom="","",IF(%[1]s="","missing",IF(%[1]s>=Objective_Min_Headroom,"pass","fail")))`, rel(colHeadroom, r)), checks["headroom"]),
			fx(0, fmt.Sprintf(`IF(Objective_No_OOM,IF(OR(%s,%s),"fail",IF(%s,"pass","unknown")),"")`, rel(colOOM, r), rel(colRestart, r), rel(colOOMChecked, r)), checks["no_oom"]),
			fx(b.st.bold, fmt.Sprintf(`IF(%[1]s,"stopped",IF(COUNTIF(%[2]s:%[3]s,"fail")>0,"fail",IF(COUNTIF(%[2]s:%[3]s,"missing")>0,"not-judged","pass")))`,
				rel(colStopped, r), rel(colChkSuccess, r), rel(colChkOOM, r)), string(rr.Verdict.State)),
			fx(0, inEnvelope(r), rr.InEnvelope),
			v(b.st.wrap, rr.Verdict.Summary), yesNo(rr.NonMonotone), v(b.st.wrap, rr.NotCountedText()), v(b.st.wrap, warningsText(rr.Warnings)),
			rr.Source.File, rr.Source.SHA256, v(b.st.wrap, pathsText(row.Paths)),
			v(b.st.wrap, measuredFromText(rr)),
		}
		// The confidence of the verdict as values beside the figures
		// (docs/method.md, "Confidence"): the success rate's exact
		// interval and each bounded percentile's bounds, empty where the
		// row has none.
		var lo, hi any = "", ""
		if iv := rr.SuccessInterval; iv != nil {
			lo, hi = v(b.st.pct, iv.Lower), v(b.st.pct, iv.Upper)
		}
		cells = append(cells, lo, hi)
		for _, crit := range []string{"ttft", "e2e", "tpot", "itl"} {
			var l, u any = "", ""
			for _, pb := range rr.Bounds {
				if pb.Criterion == crit {
					l, u = v(b.st.secs, optOrEmpty(pb.Lower)), v(b.st.secs, optOrEmpty(pb.Upper))
				}
			}
			cells = append(cells, l, u)
		}
		cells = append(cells, v(b.st.wrap, rr.ConfidenceText()))
		s.add(cells...)
	}
	if len(b.r.Result.Matrix) == 0 {
		s.add("No rows imported.")
	}
}

// measuredFromText names where a row's headroom and peak memory, and its
// power, came from: "memory: typed; power: telemetry: smi.csv".
func measuredFromText(rr planner.RowResult) string {
	var parts []string
	if rr.MemoryHeadroomSource != "" {
		parts = append(parts, "memory: "+rr.MemoryHeadroomSource)
	}
	if rr.PowerWattsSource != "" {
		parts = append(parts, "power: "+rr.PowerWattsSource)
	}
	return strings.Join(parts, "; ")
}

func optOrEmpty(p *float64) any {
	if p == nil {
		return ""
	}
	return *p
}

func warningsText(ws []planner.Warning) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Code + ": " + w.Message
	}
	return strings.Join(parts, "; ")
}

func pathsText(paths map[string]string) string {
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " = " + paths[k]
	}
	return strings.Join(parts, "; ")
}

// modelCell is a row's model: its file's, else the one typed for it,
// marked as typed (docs/method.md, "Weak evidence").
func modelCell(row planner.Row) string {
	if m := row.ModelName(); m != "" && strings.TrimSpace(row.Model) == "" {
		return m + " (typed)"
	}
	return row.ModelName()
}

// envelopeSheet shows the envelope (its ceiling a formula over the
// matrix's in-envelope column), the capacity per box, and the admission
// limit as the planner proposed it.
func (b *book) envelopeSheet() {
	s := b.sheets[shEnvelope]
	s.cols(40, 22, 70)
	res := b.r.Result
	e, a, cp := res.Envelope, res.Admission, res.Capacity
	n := len(res.Matrix)
	m := b.sheets[shMatrix]
	b.title(s, "Envelope and admission")
	s.add(excelize_bold(b, "Envelope"), v(b.st.wrap, string(e.State)), v(b.st.wrap, e.Text))

	ceilRows := 0
	for _, rr := range res.Matrix {
		if rr.InEnvelope {
			ceilRows++
		}
	}
	countF, ceilF, rateF, succF, capF := "0", `""`, `""`, `""`, `""`
	if n > 0 {
		countF = fmt.Sprintf("COUNTIF(%s,TRUE)", m.rng(colInEnvelope, 2, n+1))
		ceilF = fmt.Sprintf(`IF(Ceiling_Rows=0,"",INDEX(%s,Ceiling_Rows))`, m.rng(colLoad, 2, n+1))
		rateF = fmt.Sprintf(`IF(Ceiling_Rows=0,"",INDEX(%s,Ceiling_Rows))`, m.rng(colCapacityRate, 2, n+1))
		succF = fmt.Sprintf(`IF(Ceiling_Rows=0,"",INDEX(%s,Ceiling_Rows))`, m.rng(colSuccessRate, 2, n+1))
		capF = `IF(OR(Ceiling_Rate="",Capacity_Share=""),"",IF(N(Arrivals_Rate)>0,Arrivals_Rate,Ceiling_Rate)*Capacity_Share)`
	}
	row := s.next()
	s.add("Rows in the envelope (the passing rows from the lowest load up)", fx(b.st.int, countF, ceilRows))
	b.name("Ceiling_Rows", s, 2, row)
	row = s.next()
	s.add(excelize_bold(b, "Demonstrated ceiling (load)"), fx(b.st.num, ceilF, optOrEmpty(e.Ceiling)), "the highest load such that it and every lower load pass")
	b.name("Ceiling_Load", s, 2, row)
	s.add("Load kind", string(e.LoadKind))
	s.add("First failure", v(b.st.num, opt(e.FirstFailure)), v(b.st.wrap, e.FirstFailureReason))
	s.add("Non-monotone loads (passed above a failure; not counted)", joinFloats(e.NonMonotone))

	s.add()
	s.add(excelize_bold(b, "Capacity per box"))
	row = s.next()
	s.add("Successful requests per second at the ceiling", fx(b.st.rate, rateF, optOrEmpty(cp.CeilingRate)))
	b.name("Ceiling_Rate", s, 2, row)
	row = s.next()
	s.add("Success rate at the ceiling", fx(b.st.pct, succF, optOrEmpty(cp.SuccessRate)))
	b.name("Ceiling_Success_Rate", s, 2, row)
	// Goodput: the ceiling row's successful requests on record and those
	// within every latency bound (counted by the planner from the
	// per-request records, which the workbook does not hold). The rate
	// above counts successes only, so failures are not subtracted again:
	// the share is of the successes; without records every success
	// counts and the capacity is an upper bound (docs/method.md,
	// "Capacity per box").
	var gOK, gGood any = "", ""
	if g := cp.Goodput; g != nil {
		gOK, gGood = g.Requests-g.Failed, g.Good
	}
	row = s.next()
	s.add("Successful requests at the ceiling on record (per-request)", v(b.st.int, gOK))
	b.name("Goodput_Successes", s, 2, row)
	row = s.next()
	s.add("Of them, within every latency bound", v(b.st.int, gGood))
	b.name("Goodput_Good", s, 2, row)
	row = s.next()
	s.add("Share of successes counted for capacity", fx(b.st.pct, `IF(N(Goodput_Successes)>0,Goodput_Good/Goodput_Successes,1)`, optOrEmpty(cp.InObjectiveShare)), v(b.st.wrap, cp.UpperBoundNote))
	b.name("Capacity_Share", s, 2, row)
	// The busy hour with random arrivals (docs/method.md, "Queues in the
	// busy hour"): the highest rate per box the planner's simulation
	// holds the objective at, a value the workbook cannot recompute; the
	// capacity is it times the share, else the closed-loop rate's.
	var arrivals any = ""
	arrivalsNote := cp.QueueNote
	if q := cp.Queue; q != nil {
		arrivals = q.SustainableRate
		arrivalsNote = "simulated on export: " + q.Basis
	}
	byRow := planner.ArrivalRatesByRow(b.r.Inputs, res)
	row = s.next()
	cells := []any{"Highest arrival rate per box, were each row of the matrix the ceiling (simulated on export, req/s)"}
	for _, x := range byRow {
		cells = append(cells, v(b.st.rate, opt(x)))
	}
	s.add(cells...)
	if len(byRow) > 0 {
		b.names["Arrivals_By_Row"] = "'" + s.name + "'!" + abs(2, row) + ":" + abs(len(byRow)+1, row)
	}
	arrivalsF := `""`
	if len(byRow) > 0 {
		arrivalsF = `IF(Ceiling_Rows=0,"",IF(N(INDEX(Arrivals_By_Row,Ceiling_Rows))>0,INDEX(Arrivals_By_Row,Ceiling_Rows),""))`
	}
	row = s.next()
	s.add("Highest arrival rate per box that holds the objective (simulated, req/s)", fx(b.st.rate, arrivalsF, arrivals), v(b.st.wrap, arrivalsNote))
	b.name("Arrivals_Rate", s, 2, row)
	row = s.next()
	s.add(excelize_bold(b, "Successful in-objective req/s per box"), fx(b.st.rate, capF, optOrEmpty(cp.PerBoxRate)), v(b.st.wrap, cp.Basis+cp.Reason))
	b.name("Capacity_Per_Box_Rate", s, 2, row)
	if cp.SourceText != "" {
		s.add("Capacity and costs come from", v(b.st.wrap, "as computed on export: "+cp.SourceText))
	}
	row = s.next()
	s.add("Boxes the plan allows", v(b.st.intIn, cp.MaxBoxes))
	b.name("Max_Boxes", s, 2, row)

	s.add()
	s.add(excelize_bold(b, "Admission limit"))
	s.add("Basis", a.Basis)
	s.add("In flight the ceiling demonstrates", v(b.st.int, optInt(a.CeilingInFlight)), v(b.st.wrap, a.LittlesLaw))
	s.add("Weak evidence", v(b.st.wrap, strings.Join(a.WeakEvidence, "; ")))
	s.add("Margin below the ceiling", v(b.st.pct, a.Margin))
	s.add("Proposed max in flight", v(b.st.int, optInt(a.ProposedMaxInFlight)))
	s.add("Overridden", yesNo(a.Overridden), v(b.st.wrap, a.OverrideReason))
	row = s.next()
	s.add(excelize_bold(b, "Max in flight"), v(b.st.int, optInt(a.MaxInFlight)))
	b.name("Max_In_Flight", s, 2, row)
	s.add("Queue size", v(b.st.int, a.QueueSize))
	s.add("Max queue age", v(b.st.secs, a.MaxQueueAgeS))
	s.add("Overload answer (HTTP status)", a.OverloadStatus)
	s.add("Retry-After", v(b.st.secs, float64(a.RetryAfterS)))
	s.add("Client retries at most", a.ClientMaxRetries)
	s.add("Backoff", v(b.st.wrap, a.Backoff))
	for _, r := range a.Reasons {
		s.add("Reason", nil, v(b.st.wrap, r))
	}
	s.add("vLLM flags", nil, v(b.st.wrap, strings.Join(a.Settings.VLLMFlags, " ")))
	for _, nt := range a.Settings.VLLMNotes {
		s.add("vLLM note", nil, v(b.st.wrap, nt))
	}
	s.add("Gateway settings", nil, v(b.st.wrap, a.Settings.GatewayJSON))
}
