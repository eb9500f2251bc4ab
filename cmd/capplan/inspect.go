package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"capplan/importers"
	"capplan/planner"
)

const inspectUsage = `Usage: capplan inspect [--json] [--max-bytes N] FILE|FOLDER...

Reads benchmark result files (%s),
detects each format from its content and prints one row per tested load
level with its warnings. Latencies are in seconds. No database is used and
nothing is stored. The files given are read together as one upload (a
folder as its result files): a genai-bench experiment_metadata.json
completes its runs, an AIPerf server_metrics_export.json its run.
Memory stays bounded whatever the file size; SIGINT or SIGTERM stops the
reading at once.

Flags:
`

// runInspect implements `capplan inspect [--json] FILE|FOLDER...`.
func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	maxBytes := fs.Int64("max-bytes", 0, "refuse files larger than this many bytes (0: no limit)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), inspectUsage, importers.FormatLabels())
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("inspect: no file given")
	}
	paths, err := inspectPaths(fs.Args())
	if err != nil {
		return err
	}
	var files []*importers.File
	var errs []error
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := importers.ParseFile(path, importers.Options{MaxBytes: *maxBytes, Context: ctx})
		if ctx.Err() != nil {
			return fmt.Errorf("inspect: stopped: %w", ctx.Err())
		}
		if err != nil {
			errs = append(errs, err) // the error names the file
			continue
		}
		files = append(files, f)
	}
	// the files read together, as one upload: a genai-bench experiment's
	// metadata completes its runs, AIPerf's server metrics their run
	files, err = importers.CompleteUpload(files)
	if err != nil {
		errs = append(errs, err)
	}
	if *asJSON {
		err = writeInspectJSON(stdout, files)
	} else {
		err = writeInspectText(stdout, files)
	}
	if err != nil {
		return err
	}
	return errors.Join(errs...)
}

// inspectPaths expands each folder given into the result files directly
// inside it (JSON, JSONL, YAML, CSV, in name order; hidden files, images,
// logs and spreadsheets left out), so a genai-bench experiment folder is
// read as its upload is; a file is kept as given.
func inspectPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			out = append(out, a) // the reading says what is wrong with it
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			return nil, fmt.Errorf("inspect: %w", err)
		}
		n := 0
		for _, e := range ents {
			name := e.Name()
			if e.IsDir() || strings.HasPrefix(name, ".") {
				continue
			}
			switch strings.ToLower(filepath.Ext(name)) {
			case ".json", ".jsonl", ".yaml", ".yml", ".csv":
				out = append(out, filepath.Join(a, name))
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("inspect: %s: a folder with no result files (JSON, JSONL, YAML or CSV) in it", a)
		}
	}
	return out, nil
}

// inspectStat is a latency summary in the JSON output.
type inspectStat struct {
	Mean *float64 `json:"mean"`
	P50  *float64 `json:"p50"`
	P95  *float64 `json:"p95"`
	P99  *float64 `json:"p99"`
	N    *int     `json:"n"`
}

// inspectRow is one load level in the JSON output.
type inspectRow struct {
	LoadKind            planner.LoadKind  `json:"load_kind"`
	Load                *float64          `json:"load"`
	AchievedConcurrency *float64          `json:"achieved_concurrency"`
	AchievedRate        *float64          `json:"achieved_rate"`
	SendRate            *float64          `json:"send_rate"`
	Attempted           *int              `json:"attempted"`
	Successful          *int              `json:"successful"`
	Errored             *int              `json:"errored"`
	Incomplete          *int              `json:"incomplete"`
	DurationS           *float64          `json:"duration_s"`
	RequestRate         *float64          `json:"request_rate"`
	OutputTokenRate     *float64          `json:"output_token_rate"`
	PromptTokensMean    *float64          `json:"prompt_tokens_mean"`
	OutputTokensMean    *float64          `json:"output_tokens_mean"`
	TTFT                inspectStat       `json:"ttft_s"`
	TTFOT               inspectStat       `json:"ttfot_s"`
	E2E                 inspectStat       `json:"e2e_s"`
	ITL                 inspectStat       `json:"itl_s"`
	TPOT                inspectStat       `json:"tpot_s"`
	Warnings            []planner.Warning `json:"warnings"`
}

// inspectFile is one file in the JSON output.
type inspectFile struct {
	File          string            `json:"file"`
	SHA256        string            `json:"sha256"`
	Format        string            `json:"format"`
	FormatVersion *string           `json:"format_version"`
	ToolVersion   *string           `json:"tool_version"`
	Model         *string           `json:"model"`
	Rows          []inspectRow      `json:"rows"`
	Warnings      []planner.Warning `json:"warnings"`
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toInspectStat(s planner.Stat) inspectStat {
	out := inspectStat{Mean: s.Mean, P50: s.P50, P95: s.P95, P99: s.P99}
	if s.N > 0 {
		n := s.N
		out.N = &n
	}
	return out
}

func writeInspectJSON(w io.Writer, files []*importers.File) error {
	out := struct {
		Files []inspectFile `json:"files"`
	}{Files: []inspectFile{}}
	for _, f := range files {
		jf := inspectFile{
			File: f.Source.File, SHA256: f.Source.SHA256, Format: f.Source.Format,
			FormatVersion: optStr(f.Source.FormatVersion), ToolVersion: optStr(f.Source.ToolVersion),
			Model: optStr(f.Model), Rows: []inspectRow{}, Warnings: nonNil(f.Warnings),
		}
		for _, r := range f.Rows {
			jf.Rows = append(jf.Rows, inspectRow{
				LoadKind: r.LoadKind, Load: r.Load, AchievedConcurrency: r.AchievedConcurrency, AchievedRate: r.AchievedRate, SendRate: r.SendRate,
				Attempted: r.Attempted, Successful: r.Successful, Errored: r.Errored, Incomplete: r.Incomplete,
				DurationS: r.DurationS, RequestRate: r.RequestRate, OutputTokenRate: r.OutputTokenRate,
				PromptTokensMean: r.PromptTokensMean, OutputTokensMean: r.OutputTokensMean,
				TTFT: toInspectStat(r.TTFT), TTFOT: toInspectStat(r.TTFOT), E2E: toInspectStat(r.E2E), ITL: toInspectStat(r.ITL), TPOT: toInspectStat(r.TPOT),
				Warnings: nonNil(r.Warnings),
			})
		}
		out.Files = append(out.Files, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func nonNil(w []planner.Warning) []planner.Warning {
	if w == nil {
		return []planner.Warning{}
	}
	return w
}

func writeInspectText(w io.Writer, files []*importers.File) error {
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(w)
		}
		s := f.Source
		fmt.Fprintf(w, "%s\n  format %s %s", s.File, s.Format, orDash(s.FormatVersion))
		if s.ToolVersion != "" {
			fmt.Fprintf(w, ", tool %s", s.ToolVersion)
		}
		fmt.Fprintf(w, ", model %s, sha256 %s\n", orDash(f.Model), s.SHA256)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "#\tkind\tload\tconc\tattempted\tok\terr\tincompl\tdur_s\treq/s\tout_tok/s\tttft_p50\tttft_p95\tttft_p99\tttfot_p95\te2e_p50\te2e_p95\te2e_p99\titl_p95\ttpot_p95\twarnings\t")
		for _, r := range f.Rows {
			codes := make([]string, 0, len(r.Warnings))
			for _, x := range r.Warnings {
				codes = append(codes, x.Code)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
				r.Index, r.LoadKind, fnum(r.Load), fnum(r.AchievedConcurrency), inum(r.Attempted), inum(r.Successful),
				inum(r.Errored), inum(r.Incomplete), fnum(r.DurationS), fnum(r.RequestRate), fnum(r.OutputTokenRate),
				fnum(r.TTFT.P50), fnum(r.TTFT.P95), fnum(r.TTFT.P99), fnum(r.TTFOT.P95), fnum(r.E2E.P50), fnum(r.E2E.P95), fnum(r.E2E.P99),
				fnum(r.ITL.P95), fnum(r.TPOT.P95), orDash(strings.Join(codes, ",")))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, x := range f.Warnings {
			fmt.Fprintf(w, "  file: %s [%s]\n", planner.WarningSentence(x), x.Code)
		}
		for _, r := range f.Rows {
			for _, x := range r.Warnings {
				fmt.Fprintf(w, "  row %d: %s [%s]\n", r.Index, planner.WarningSentence(x), x.Code)
			}
		}
	}
	return nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fnum(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.4g", *v)
}

func inum(v *int) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprint(*v)
}
