package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"capplan/importers"
	"capplan/planner"
)

const envelopeUsage = `Usage: capplan envelope --objective OBJECTIVE [--headroom P%%] [--require N] [--json] FILE...

Judges every row of the benchmark result files against the objective,
prints each row's verdict with the failing criteria, the demonstrated
ceiling (the highest load such that it and every lower load pass) and the
admission limit proposed from it. No database is used.

With --require N it exits with status %d when the ceiling is below N (or
nothing passes), so CI can gate a deployment on it.

Objective syntax (one percentile for all latency bounds):

  %s

Flags:
`

// requireExitCode is the exit status when the ceiling is below --require.
const requireExitCode = 3

// CeilingBelowError says the demonstrated ceiling is below what --require
// asked for; main exits with its ExitCode.
type CeilingBelowError struct {
	Require  float64
	Ceiling  *float64 // nil when there is no envelope
	Envelope string   // the envelope in a sentence
}

func (e *CeilingBelowError) Error() string {
	if e.Ceiling == nil {
		return fmt.Sprintf("envelope: required %s but there is no envelope (%s)", fmtFloat(e.Require), e.Envelope)
	}
	return fmt.Sprintf("envelope: demonstrated ceiling %s is below the required %s", fmtFloat(*e.Ceiling), fmtFloat(e.Require))
}

// ExitCode is the process exit status for this error.
func (e *CeilingBelowError) ExitCode() int { return requireExitCode }

// envelopeReport is the --json output.
type envelopeReport struct {
	Objective string              `json:"objective"`
	Rows      []planner.RowResult `json:"rows"`
	Warnings  []planner.Warning   `json:"warnings"`
	Envelope  planner.Envelope    `json:"envelope"`
	Admission planner.Admission   `json:"admission"`
	Require   *float64            `json:"require,omitempty"`
	Pass      bool                `json:"pass"`
}

// runEnvelope implements `capplan envelope`.
func runEnvelope(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("envelope", flag.ContinueOnError)
	fs.SetOutput(stderr)
	objText := fs.String("objective", "", "the service objective (see the syntax above); required")
	headroom := fs.String("headroom", "", "free device memory observed at peak during the run, e.g. 12%, applied to every row (result files do not carry it; needed when the objective has headroom>=)")
	deviceGiB := fs.Float64("device-memory", 0, "the device's memory in GiB (e.g. 80): a row whose file records its peak memory gets its headroom as 1 - peak / device memory, as in a report")
	require := fs.Float64("require", 0, "fail with exit status 3 when the demonstrated ceiling is below this load")
	confidence := fs.String("confidence", "95%", "the confidence level of the bounds each verdict states from per-request records")
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), envelopeUsage, requireExitCode, strings.ReplaceAll(planner.ObjectiveSyntax, "\n", "\n  "))
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *objText == "" {
		fs.Usage()
		return errors.New("envelope: --objective is required")
	}
	obj, err := planner.ParseObjective(*objText)
	if err != nil {
		return fmt.Errorf("envelope: %w", err)
	}
	var observed *float64
	if *headroom != "" {
		h, err := parseHeadroom(*headroom)
		if err != nil {
			return err
		}
		observed = &h
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("envelope: no file given")
	}

	var rows []planner.Row
	for _, path := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := importers.ParseFile(path, importers.Options{})
		if err != nil {
			return err // the error names the file
		}
		for _, r := range f.Rows {
			if observed != nil {
				r.Observed.Headroom = planner.F(*observed)
			}
			rows = append(rows, r)
		}
	}

	if *deviceGiB < 0 {
		return fmt.Errorf("envelope: --device-memory %g: a device's memory is a positive number of GiB", *deviceGiB)
	}
	if *deviceGiB > 0 {
		rows = planner.ResolveRows(rows, nil, deviceGiB)
	}

	conf, err := parseConfidence(*confidence)
	if err != nil {
		return err
	}
	c := planner.Contract{Objective: obj, Confidence: conf}
	m, env := planner.JudgeMatrix(rows, c, obj, "")
	adm := planner.ProposeAdmission(m, env, obj, c, planner.AdmissionInput{})
	rep := envelopeReport{Objective: obj.String(), Rows: m, Envelope: env, Admission: adm, Pass: true}
	if *require > 0 {
		rep.Require = require
		rep.Pass = env.Ceiling != nil && *env.Ceiling >= *require
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else if err := writeEnvelopeText(stdout, rep); err != nil {
		return err
	}
	if !rep.Pass {
		return &CeilingBelowError{Require: *require, Ceiling: env.Ceiling, Envelope: env.Text}
	}
	return nil
}

// parseConfidence reads "95%" as 0.95; it must lie strictly between 50 %
// and 100 %.
func parseConfidence(s string) (float64, error) {
	num, _ := strings.CutSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || !(v > 50 && v < 100) {
		return 0, fmt.Errorf("envelope: --confidence %q: want a percentage between 50%% and 100%%, such as 95%%", s)
	}
	return v / 100, nil
}

// parseHeadroom reads "12%" as 0.12.
func parseHeadroom(s string) (float64, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(s), "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !ok || err != nil || v < 0 || v >= 100 {
		return 0, fmt.Errorf("envelope: --headroom %q: want a percentage such as 12%%", s)
	}
	return v / 100, nil
}

func writeEnvelopeText(w io.Writer, rep envelopeReport) error {
	fmt.Fprintf(w, "objective: %s\n\n", rep.Objective)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "load\tkind\tsuccess\tttft\te2e\tverdict\tfile")
	pct := "p" + fmtFloat(firstNonZero(rep.envelopePercentile(), 95))
	for _, rr := range rep.Rows {
		load := "?"
		if rr.LoadKnown {
			load = fmtFloat(rr.Load)
		}
		verdict := rr.Verdict.Summary
		if rr.NonMonotone {
			verdict += " (non-monotone: not counted)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s %s\t%s %s\t%s\t%s\n", load, rr.Row.LoadKind, fmtRate(rr.SuccessRate),
			pct, fmtSeconds(rr.Row.TTFT.Percentile(firstNonZero(rep.envelopePercentile(), 95))),
			pct, fmtSeconds(rr.Row.E2E.Percentile(firstNonZero(rep.envelopePercentile(), 95))),
			verdict, rr.Source.File)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, rr := range rep.Rows {
		for _, wn := range rr.Warnings {
			fmt.Fprintf(w, "warning: load %s: %s [%s]\n", fmtFloat(rr.Load), planner.WarningSentence(wn), wn.Code)
		}
	}
	fmt.Fprintln(w, "\nconfidence:")
	for _, rr := range rep.Rows {
		state := ""
		switch {
		case rr.Covered:
			state = " (inconclusive, covered by the ceiling)"
		case rr.Inconclusive:
			state = " (inconclusive)"
		}
		fmt.Fprintf(w, "  load %s%s: %s\n", fmtFloat(rr.Load), state, rr.ConfidenceText())
	}
	fmt.Fprintf(w, "\nenvelope: %s\n", rep.Envelope.Text)
	if nt := rep.Envelope.Next; nt != nil {
		fmt.Fprintf(w, "\n%s, GPUs %s (%s)\n", nt.Text, fmtFloat(nt.GPUs), nt.GPUsSource)
		if nt.EstimateText != "" {
			fmt.Fprintf(w, "  %s\n", nt.EstimateText)
		}
		for _, r := range nt.Runs {
			fmt.Fprintf(w, "  load %s (%s): %d successful requests (%s), about %s s, %s GPU minutes\n",
				fmtFloat(r.Load), r.Why, r.Requests, r.Basis, fmtFloat(r.Seconds), fmtFloat(r.GPUMinutes))
			fmt.Fprintf(w, "    %s\n", r.GuideLLM)
			if r.VLLM != "" {
				fmt.Fprintf(w, "    %s\n", r.VLLM)
			}
		}
	}
	a := rep.Admission
	fmt.Fprintln(w, "\nadmission proposal:")
	if a.MaxInFlight != nil {
		fmt.Fprintf(w, "  max in flight     %d\n", *a.MaxInFlight)
	} else {
		fmt.Fprintln(w, "  max in flight     none (no demonstrated ceiling)")
	}
	fmt.Fprintf(w, "  queue size        %d\n  max queue age     %s s\n  overload answer   HTTP %d, Retry-After %d s\n  client retries    at most %d (%s)\n",
		a.QueueSize, fmtFloat(a.MaxQueueAgeS), a.OverloadStatus, a.RetryAfterS, a.ClientMaxRetries, a.Backoff)
	for _, r := range a.Reasons {
		fmt.Fprintf(w, "  - %s\n", r)
	}
	if len(a.Settings.VLLMFlags) > 0 {
		fmt.Fprintf(w, "\nvllm serve flags: %s\n", strings.Join(a.Settings.VLLMFlags, " "))
	}
	for _, n := range a.Settings.VLLMNotes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "\ngateway:\n%s\n", a.Settings.GatewayJSON)
	if rep.Require != nil {
		status := "PASS"
		switch {
		case !rep.Pass:
			status = "FAIL"
		case rep.Envelope.Weak:
			// The gate reads the same ceiling as the report, and says when
			// it rests on weak evidence (docs/method.md, "Weak evidence").
			status = "PASS, on weak evidence: " + strings.Join(rep.Envelope.Evidence, "; ")
		}
		fmt.Fprintf(w, "\nrequire %s: %s\n", fmtFloat(*rep.Require), status)
	}
	return nil
}

// envelopePercentile is the objective's percentile, read back from its text.
func (rep envelopeReport) envelopePercentile() float64 {
	o, err := planner.ParseObjective(rep.Objective)
	if err != nil {
		return 0
	}
	return o.Percentile
}

func firstNonZero(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func fmtSeconds(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 2, 64) + " s"
}

func fmtRate(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v*100, 'f', 1, 64) + " %"
}
