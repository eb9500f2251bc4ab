package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
)

// Two stages of an llm-d benchmark report, one YAML and one JSON, in one
// upload: a row each, read as llm-d with the path inside the file of each
// figure. (What the page says of them, the stack and the credential
// warned about but shown nowhere: web/view's TestLLMDReportsSayTheirStack.)
func TestLLMDReportsImported(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	yml, err := os.ReadFile("../importers/testdata/llmd_br_v0.2.1_stage.yaml")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("../importers/testdata/llmd_br_v0.2_stage.json")
	if err != nil {
		t.Fatal(err)
	}
	res, body := postFiles(t, lead, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true, upload{"stage_2.yaml", yml}, upload{"stage_5.json", js})
	if res.StatusCode != http.StatusCreated || !strings.Contains(body, "Added 2 rows from 2 files.") {
		t.Fatalf("upload: %d\n%.800s", res.StatusCode, body)
	}
	rows, err := app.store.Rows(context.Background(), r.ID)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, sr := range rows {
		row := sr.Row
		if row.Source.Format != "llm-d" || row.TTFT.P99 == nil || row.Paths["ttft_s.p99"] != "results.request_performance.aggregate.latency.time_to_first_token.p99" {
			t.Errorf("row %s: format %q, ttft p99 %v, path %q", row.Source.File, row.Source.Format, row.TTFT.P99, row.Paths["ttft_s.p99"])
		}
	}
}
