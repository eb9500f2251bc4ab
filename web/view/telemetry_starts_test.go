package view

import (
	"regexp"
	"strings"
	"testing"
)

// GuideLLM records when each benchmark began: where the rows carry those
// times (the demo's files) the GPU log's form does not ask when the first
// row began, saying why; where they do not (sweepReport's rows) the start
// is required. (That a log is aligned by those times is tested in web.)
func TestTelemetryFormAsksForAStartOnlyWithoutOne(t *testing.T) {
	startInput := regexp.MustCompile(`<input[^>]*data-testid="telemetry-start"[^>]*>`)
	page := printOf(t, demoReport(t))
	in := startInput.FindString(page)
	if testid(page, "telemetry-starts-from-files") == "" || in == "" || strings.Contains(in, "required") {
		t.Errorf("the form still asks when the first row began: %q", in)
	}
	page = printOf(t, sweepReport(t))
	in = startInput.FindString(page)
	if testid(page, "telemetry-starts-from-files") != "" || !strings.Contains(in, "required") {
		t.Errorf("rows without their starts: the form does not require one: %q", in)
	}
}
