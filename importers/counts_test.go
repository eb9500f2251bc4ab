package importers

import (
	"strings"
	"testing"
)

// TestCountsNamed feeds request counts that contradict each other or are
// not numbers a tool writes: each refusal names the count and what is
// wrong with it, never "missing", and never a row.
func TestCountsNamed(t *testing.T) {
	guide := string(mustRead(t, "testdata/guidellm_d_small.json"))
	const totals = `"successful": 3, "errored": 0, "incomplete": 0, "total": 3`
	aiperf := string(mustRead(t, "testdata/aiperf_0.2.json"))
	const okCount = `"request_count": {
    "unit": "requests",
    "avg": 118.0`
	records := string(mustRead(t, "testdata/aiperf_0.1_records.json"))
	const recCount = `"unit": "requests", "avg": 200`
	edit := func(s, old, new string) string {
		if !strings.Contains(s, old) {
			t.Fatalf("fixture text %q not found", old)
		}
		return strings.Replace(s, old, new, 1)
	}
	for _, c := range []struct {
		name, in, want string
	}{
		{"GuideLLM successes above the total", edit(guide, totals, `"successful": 12, "errored": 0, "incomplete": 0, "total": 3`),
			"request_totals.successful (12 successful) is more than benchmarks[0].metrics.request_totals.total (3 attempted): the request counts contradict each other"},
		{"GuideLLM statuses above the total", edit(guide, totals, `"successful": 3, "errored": 2, "incomplete": 0, "total": 3`),
			"3 successful + 2 errored + 0 incomplete (5): the request counts contradict each other"},
		{"GuideLLM NaN successes", edit(guide, totals, `"successful": NaN, "errored": 0, "incomplete": 0, "total": 3`), "request_totals.successful (successful) is NaN"},
		{"GuideLLM NaN as a string", edit(guide, totals, `"successful": "NaN", "errored": 0, "incomplete": 0, "total": 3`), "request_totals.successful (successful) is NaN"},
		{"GuideLLM infinite total", edit(guide, totals, `"successful": 3, "errored": 0, "incomplete": 0, "total": Infinity`), "request_totals.total (attempted) is implausibly large: +Inf"},
		{"GuideLLM -Infinity successes", edit(guide, totals, `"successful": -Infinity, "errored": 0, "incomplete": 0, "total": 3`), "request_totals.successful (successful) is implausibly large: -Inf"},
		{"GuideLLM negative errors", edit(guide, totals, `"successful": 3, "errored": -1, "incomplete": 0, "total": 3`), "request_totals.errored (errored) is negative: -1"},
		{"GuideLLM 1e29 successes", edit(guide, totals, `"successful": 1e29, "errored": 0, "incomplete": 0, "total": 3`), "request_totals.successful (successful) is implausibly large: 1e+29"},
		{"AIPerf NaN successes", edit(aiperf, okCount, `"request_count": {"unit": "requests", "avg": NaN`), "request_count.avg (successful) is NaN"},
		{"AIPerf negative successes", edit(aiperf, okCount, `"request_count": {"unit": "requests", "avg": -5`), "request_count.avg (successful) is negative: -5"},
		{"AIPerf 1e29 successes", edit(aiperf, okCount, `"request_count": {"unit": "requests", "avg": 1e29`), "request_count.avg (successful) is implausibly large: 1e+29"},
		{"AIPerf infinite successes", edit(aiperf, okCount, `"request_count": {"unit": "requests", "avg": Infinity`), "request_count.avg (successful) is implausibly large: +Inf"},
		{"AIPerf NaN errors", edit(aiperf, `"error_request_count": {
    "unit": "requests",
    "avg": 2.0`, `"error_request_count": {"unit": "requests", "avg": NaN`), "error_request_count.avg (errored) is NaN"},
		{"AIPerf 0.1 NaN successes", edit(records, recCount, `"unit": "requests", "avg": NaN`), "records.request_count.avg (successful) is NaN"},
		{"AIPerf 0.1 -Infinity successes", edit(records, recCount, `"unit": "requests", "avg": -Infinity`), "records.request_count.avg (successful) is implausibly large: -Inf"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("r.json", strings.NewReader(c.in), Options{})
			if err == nil {
				t.Fatalf("imported %d rows, want a refusal saying %q", len(f.Rows), c.want)
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "missing") || !strings.HasPrefix(err.Error(), "r.json: ") {
				t.Errorf("err = %v\nwant it to say %q (and not \"missing\")", err, c.want)
			}
		})
	}
}
