package web

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// reportMatrixCSV downloads the judged matrix as CSV: one line per row with its
// figures, verdict, failing criteria, warnings and source. Every value is
// read from planner.Result.
func (s *Server) reportMatrixCSV(c echo.Context) error {
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := writeMatrixCSV(&buf, v.Result); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="report-%d-matrix.csv"`, v.R.ID))
	return c.Blob(200, "text/csv; charset=utf-8", buf.Bytes())
}

// writeMatrixCSV writes the matrix of res. Fractions (success rate,
// headroom) are written as fractions, times in seconds.
func writeMatrixCSV(buf *bytes.Buffer, res planner.Result) error {
	var rows [][]string
	p := view.PNum(res.Objective.Percentile)
	head := []string{"load_kind", "load", "achieved_concurrency", "achieved_rate", "attempted", "successful", "errored", "incomplete",
		"success_rate", "duration_s", "request_rate", "output_token_rate",
		"ttft_p50_s", "ttft_p95_s", "ttft_p99_s", "e2e_p50_s", "e2e_p95_s", "e2e_p99_s", "tpot_" + p + "_s", "itl_" + p + "_s",
		"peak_memory_gib", "headroom", "oom", "restart", "power_watts", "output_tokens_per_joule", "stopped", "stop_reason",
		"verdict", "failures", "missing", "in_envelope", "non_monotone", "counted", "not_counted_because", "warnings", "file", "sha256", "row_in_file"}
	rows = append(rows, head)
	for _, rr := range res.Matrix {
		r := rr.Row
		warn := make([]string, len(rr.Warnings))
		for i, x := range rr.Warnings {
			warn[i] = x.Code + ": " + x.Message
		}
		line := []string{string(r.LoadKind), csvF(r.Load), csvF(r.AchievedConcurrency), csvF(r.AchievedRate),
			csvI(r.Attempted), csvI(r.Successful), csvI(r.Errored), csvI(rr.Incomplete),
			csvF(rr.SuccessRate), csvF(r.DurationS), csvF(r.RequestRate), csvF(r.OutputTokenRate),
			csvF(r.TTFT.P50), csvF(r.TTFT.P95), csvF(r.TTFT.P99), csvF(r.E2E.P50), csvF(r.E2E.P95), csvF(r.E2E.P99),
			csvF(r.TPOT.Percentile(res.Objective.Percentile)), csvF(r.ITL.Percentile(res.Objective.Percentile)),
			csvF(rr.PeakMemoryGiB), csvF(rr.MemoryHeadroom), strconv.FormatBool(r.Observed.OOM), strconv.FormatBool(r.Observed.Restart),
			csvF(rr.PowerWattsMean), csvF(r.OutputTokensPerJoule()), strconv.FormatBool(r.Observed.Stopped), r.Observed.StopReason,
			string(rr.Verdict.State), strings.Join(rr.Verdict.Failures, "; "), strings.Join(rr.Verdict.Missing, "; "),
			strconv.FormatBool(rr.InEnvelope), strconv.FormatBool(rr.NonMonotone), strconv.FormatBool(rr.Counted), rr.NotCountedText(), strings.Join(warn, "; "),
			rr.Source.File, rr.Source.SHA256, strconv.Itoa(r.Index)}
		rows = append(rows, line)
	}
	return reports.WriteCSV(buf, rows)
}

func csvF(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func csvI(v *int) string {
	if v == nil {
		return ""
	}
	return strconv.Itoa(*v)
}
