package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/demogen/telemetrygen"
	"capplan/web/demogen/usagegen"
	"capplan/web/reports"
	"capplan/web/store"
)

// The demo report's operations evidence goes through the same importers as
// an upload: a GPU log of the rows, a six-hour soak with drains and a
// two-tenant usage log.

// DemoTelemetryStart is when the demo's first row began: the start of the
// contract's test window, on its test date.
func DemoTelemetryStart() time.Time {
	d, _ := time.Parse(time.DateOnly, reports.DemoTestDate())
	return d.Add(9 * time.Hour)
}

// demoTelemetryRows are the GPU's steady states at the demo's loads:
// utilisation pinned near 100 % while power and memory climb.
var demoTelemetryRows = map[float64]telemetrygen.Row{
	1:  {Watts: 420, MemUsedMiB: 67174, UtilPct: 96, TempC: 51},
	2:  {Watts: 480, MemUsedMiB: 67994, UtilPct: 97, TempC: 53},
	4:  {Watts: 560, MemUsedMiB: 69632, UtilPct: 98, TempC: 56},
	8:  {Watts: 640, MemUsedMiB: 71270, UtilPct: 99, TempC: 59},
	10: {Watts: 690, MemUsedMiB: 75366, UtilPct: 99, TempC: 61},
}

// DemoTelemetryLog writes the demo's nvidia-smi log for rows (in load
// order): one sample a second, the rows back to back from
// DemoTelemetryStart.
func DemoTelemetryLog(w io.Writer, rows []planner.Row) error {
	cfg := telemetrygen.Config{Start: DemoTelemetryStart(), LeadS: 30}
	for _, r := range rows {
		load, _ := r.LoadValue()
		tr, ok := demoTelemetryRows[load]
		if !ok {
			tr = telemetrygen.Row{Watts: 600, MemUsedMiB: 70000, UtilPct: 98, TempC: 58}
		}
		tr.DurationS = 60
		if r.DurationS != nil {
			tr.DurationS = *r.DurationS
		}
		cfg.Rows = append(cfg.Rows, tr)
	}
	return telemetrygen.Write(w, cfg)
}

// DemoSoak is the demo's six-hour soak behind its admission limit, with
// three drains, as a Markdown table.
const DemoSoak = `| Hour | Requests | 429 | Failed | In SLO | TTFT p99 | TPOT p99 | Tok/s | GPU W | °C max |
|---|---|---|---|---|---|---|---|---|---|
| 1 | 1,420 | 96 | 0 | 99.92% | 1,210 ms | 41.0 ms | 96 | 452 | 55 |
| 2 | 2,180 | 171 | 1 | 99.90% | 1,380 ms | 42.2 ms | 148 | 551 | 57 |
| 3 | 2,790 | 244 | 0 | 99.84% | 1,520 ms | 43.9 ms | 190 | 629 | 59 |
| 4 | 2,810 | 251 | 1 | 99.86% | 1,540 ms | 44.1 ms | 191 | 633 | 60 |
| 5 | 2,240 | 180 | 0 | 99.90% | 1,400 ms | 42.5 ms | 152 | 560 | 58 |
| 6 | 1,460 | 88 | 0 | 99.93% | 1,250 ms | 41.3 ms | 99 | 455 | 56 |

| Drain | Running at drain | Finished | Lost | New requests rejected | GPU empty after |
|---|---|---|---|---|---|
| 1 | 6 | 6 | 0 | 31 / 31 | 14 s |
| 2 | 8 | 8 | 0 | 47 / 47 | 17 s |
| 3 | 5 | 5 | 0 | 29 / 29 | 12 s |
`

// SeedDemo adds the demo report (see reports.SeedDemo) with its operations
// evidence: telemetry, soak and usage log.
func SeedDemo(ctx context.Context, st *store.Store, dataDir string) error {
	return reports.SeedDemoWith(ctx, st, dataDir, seedDemoEvidence)
}

// seedDemoEvidence imports the demo's telemetry, soak and usage log.
func seedDemoEvidence(ctx context.Context, st *store.Store, reportID, userID int64) error {
	stored, err := st.Rows(ctx, reportID)
	if err != nil {
		return err
	}
	var rows []planner.Row
	for _, sr := range stored {
		if sr.CandidateID == 0 {
			rows = append(rows, sr.Row)
		}
	}
	sort.SliceStable(rows, func(a, b int) bool {
		la, _ := rows[a].LoadValue()
		lb, _ := rows[b].LoadValue()
		return la < lb
	})
	var log bytes.Buffer
	if err := DemoTelemetryLog(&log, rows); err != nil {
		return err
	}
	res := planner.Result{}
	for _, r := range rows {
		res.Matrix = append(res.Matrix, planner.RowResult{Row: r})
	}
	up := evidenceUpload{fields: url.Values{"start": {DemoTelemetryStart().Format("2006-01-02T15:04:05")}}, name: "nvidia-smi-demo.csv"}
	tel, _, err := importTelemetry(up, &log, importers.EvidenceOptions{}, res)
	if err != nil {
		return fmt.Errorf("demo telemetry: %w", err)
	}
	soak, f, err := importers.ParseSoak("soak-demo.md", strings.NewReader(DemoSoak), importers.EvidenceOptions{})
	if err != nil {
		return fmt.Errorf("demo soak: %w", err)
	}
	soak.SHA256 = f.SHA256
	var usage bytes.Buffer
	if err := usagegen.Write(&usage, usagegen.Default()); err != nil {
		return err
	}
	m := planner.NewShowbackMeter(0)
	uf, err := importers.ParseUsage("usage-demo.jsonl", &usage, importers.EvidenceOptions{}, m.Add)
	if err != nil {
		return fmt.Errorf("demo usage: %w", err)
	}
	u := m.Usage(uf.Name)
	u.SHA256 = uf.SHA256
	for _, sec := range []struct {
		name, action string
		doc          any
	}{
		{secTelemetry, "telemetry imported", tel},
		{secSoak, "soak imported", soak},
		{secShowback, "showback imported", u},
	} {
		r, err := st.Report(ctx, reportID)
		if err != nil {
			return err
		}
		e := store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID, Action: sec.action, Section: sec.name, After: reports.DemoEntered}
		if err := st.SaveSection(ctx, e, sec.name, sec.doc); err != nil {
			return err
		}
	}
	return nil
}
