package charts

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// option renders c and returns its decoded data-echarts-option, failing
// the test if the markup is anything but one chart div.
func option(t *testing.T, c templ.Component) map[string]any {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, bad := range []string{"<script", "cdn", "go-echarts-assets", "https://"} {
		if strings.Contains(strings.ToLower(out), bad) {
			t.Errorf("output contains %q:\n%s", bad, out)
		}
	}
	m := regexp.MustCompile(`^<div class="chart" role="img" aria-label="[^"]*" data-echarts-option="([^"]*)"></div>$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("unexpected markup:\n%s", out)
	}
	var opt map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &opt); err != nil {
		t.Fatalf("option is not JSON: %v", err)
	}
	return opt
}

type series struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Step       any    `json:"step"`
	YAxisIndex int    `json:"yAxisIndex"`
	Data       []struct {
		Value any `json:"value"`
	} `json:"data"`
	MarkLine *struct {
		Data []map[string]any `json:"data"`
	} `json:"markLine"`
}

func seriesOf(t *testing.T, opt map[string]any) []series {
	t.Helper()
	b, _ := json.Marshal(opt["series"])
	var s []series
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func names(ss []series) []string {
	var n []string
	for _, s := range ss {
		n = append(n, s.Name)
	}
	return n
}

func TestLoadChart(t *testing.T) {
	ceiling := 12.0
	opt := option(t, LoadChart("Sweep <A&B>",
		[]float64{1, 2, 4, 8},
		[]float64{100, 180, 250, 260},
		map[string][]*float64{
			"TTFT p95": {ptr(0.2), ptr(0.4), nil, ptr(1.5)},
			"E2E p95":  {ptr(2), ptr(3), ptr(5), ptr(9)},
		},
		map[string]float64{"TTFT p95": 2, "ITL p99": 0.1},
		&ceiling,
	))
	ss := seriesOf(t, opt)
	if got, want := strings.Join(names(ss), ","), "output tok/s,E2E p95,TTFT p95,ITL p99 bound"; got != want {
		t.Fatalf("series = %s, want %s", got, want)
	}
	if ss[0].MarkLine == nil || ss[0].MarkLine.Data[0]["xAxis"] != 12.0 {
		t.Errorf("ceiling markLine missing on throughput: %+v", ss[0].MarkLine)
	}
	ttft := ss[2]
	if ttft.YAxisIndex != 1 {
		t.Errorf("TTFT on y axis %d, want 1", ttft.YAxisIndex)
	}
	if ttft.MarkLine == nil || ttft.MarkLine.Data[0]["yAxis"] != 2.0 {
		t.Errorf("bound markLine missing on TTFT p95: %+v", ttft.MarkLine)
	}
	if gap := ttft.Data[2].Value.([]any)[1]; gap != "-" {
		t.Errorf("nil latency encoded as %v, want the gap marker \"-\"", gap)
	}
	if ss[1].MarkLine != nil {
		t.Errorf("E2E p95 has no bound but got a markLine")
	}
	// The ceiling lies beyond the largest load, so the x axis must reach it.
	x := opt["xAxis"].([]any)[0].(map[string]any)
	if x["max"] != 20.0 {
		t.Errorf("x axis max = %v, want 20 (round number above the ceiling)", x["max"])
	}
	if title := opt["title"].(map[string]any)["text"]; title != "Sweep <A&B>" {
		t.Errorf("title = %v", title)
	}
}

func TestCostChart(t *testing.T) {
	opt := option(t, CostChart("Cost", []float64{1e5, 1e6, 1e7},
		map[string][]float64{
			"self-hosted": {3000, 3000, 9000},
			"quote B":     {50, 500, 5000},
			"quote A":     {80, 800, 8000},
		},
		map[string]float64{"quote A": 4.2e6},
		"EUR", []string{"self-hosted"},
	))
	ss := seriesOf(t, opt)
	if got, want := strings.Join(names(ss), ","), "quote A,quote B,self-hosted"; got != want {
		t.Fatalf("series = %s, want %s", got, want)
	}
	if ss[2].Step != "end" || ss[0].Step != nil {
		t.Errorf("step: self-hosted %v, quote A %v; want end and none", ss[2].Step, ss[0].Step)
	}
	if ss[0].MarkLine == nil || ss[0].MarkLine.Data[0]["xAxis"] != 4.2e6 {
		t.Errorf("crossover markLine missing on quote A: %+v", ss[0].MarkLine)
	}
	if ss[1].MarkLine != nil {
		t.Error("quote B has no crossover but got a markLine")
	}
	y := opt["yAxis"].([]any)[0].(map[string]any)
	if !strings.Contains(y["name"].(string), "EUR") {
		t.Errorf("y axis name %v lacks the currency", y["name"])
	}
}

func TestBarChart(t *testing.T) {
	opt := option(t, BarChart("Per 1,000", []string{"chat", "batch"},
		map[string][]float64{"self-hosted": {0.4, 0}, "quote A": {1.1, 0.9}}, "USD per 1,000 requests"))
	ss := seriesOf(t, opt)
	if got, want := strings.Join(names(ss), ","), "quote A,self-hosted"; got != want {
		t.Fatalf("series = %s, want %s", got, want)
	}
	if ss[1].Type != "bar" || len(ss[1].Data) != 2 || ss[1].Data[1].Value != 0.0 {
		t.Errorf("self-hosted bars = %+v; a zero cost must stay a value, not a gap", ss[1].Data)
	}
	x := opt["xAxis"].([]any)[0].(map[string]any)
	if cats := x["data"].([]any); len(cats) != 2 || cats[0] != "chat" {
		t.Errorf("categories = %v", cats)
	}
}

func TestRoundUp(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0.7, 1}, {1, 1}, {1.2, 2}, {2.1, 2.5}, {3, 5}, {7, 10}, {12.6, 20}, {4.4e6, 5e6},
	} {
		if got := roundUp(tc.in); got != tc.want {
			t.Errorf("roundUp(%g) = %g, want %g", tc.in, got, tc.want)
		}
	}
}

func TestCostLinesChart(t *testing.T) {
	opt := option(t, CostLinesChart(CostLines{
		Title: "Cost", Currency: "EUR", XName: "requests a month", XMax: 100_000.0,
		Demand: []float64{0, 40_000, 80_000, 100_000},
		Series: map[string][]*float64{
			"self-hosted": {ptr(2400), ptr(4800), ptr(4800), nil},
			"api":         {ptr(250), ptr(260), ptr(270), ptr(276)},
		},
		Stepped: []string{"self-hosted"},
		Marks: map[string][]Mark{
			"self-hosted": {{Label: "plan's capacity", Demand: 86_000}, {Label: "peak", Demand: 60_000, Minor: true}},
			"api":         {{Label: "crossover 66,667/month", Demand: 66_667}},
		},
	}))
	ss := seriesOf(t, opt)
	if got, want := strings.Join(names(ss), ","), "api,self-hosted"; got != want {
		t.Fatalf("series = %s, want %s", got, want)
	}
	b, _ := json.Marshal(opt["series"])
	var raw []map[string]any
	_ = json.Unmarshal(b, &raw)
	for _, s := range raw {
		if s["showSymbol"] != false {
			t.Errorf("%v: showSymbol = %v, want false", s["name"], s["showSymbol"])
		}
	}
	self := ss[1]
	if self.Step != "end" || ss[0].Step != nil {
		t.Errorf("step: self-hosted %v, api %v", self.Step, ss[0].Step)
	}
	if gap := self.Data[3].Value.([]any)[1]; gap != "-" {
		t.Errorf("self-hosted beyond the plan = %v, want a gap", gap)
	}
	if ss[0].MarkLine == nil || ss[0].MarkLine.Data[0]["name"] != "crossover 66,667/month" || ss[0].MarkLine.Data[0]["xAxis"] != 66_667.0 {
		t.Errorf("api markLine = %+v", ss[0].MarkLine)
	}
	if ml := self.MarkLine; ml == nil || len(ml.Data) != 2 || ml.Data[1]["lineStyle"] == nil || ml.Data[0]["lineStyle"] != nil {
		t.Errorf("self-hosted markLines = %+v, want the plan mark plain and the scenario mark styled", ml)
	}
	x := opt["xAxis"].([]any)[0].(map[string]any)
	if x["max"] != 100_000.0 || x["min"] != 0.0 || x["name"] != "requests a month" {
		t.Errorf("x axis = %v", x)
	}
}

// TestLatencyAxisShowsTheBounds: latencies far above every bound (600 s
// against bounds of 2 s and 15 s) make the latency axis logarithmic, so
// the bounds are not flattened to its floor; latencies near the bounds
// keep a linear axis that reaches the highest bound. The two bounds'
// labels sit at opposite ends.
func TestLatencyAxisShowsTheBounds(t *testing.T) {
	bounds := map[string]float64{"TTFT p95": 2, "end-to-end p95": 15}
	for _, tc := range []struct {
		name    string
		e2e     float64
		wantLog bool
	}{{"far above", 600, true}, {"near", 12, false}} {
		t.Run(tc.name, func(t *testing.T) {
			opt := option(t, LoadChart("t", []float64{1, 2}, []float64{10, 20},
				map[string][]*float64{"TTFT p95": {ptr(0.2), ptr(0.4)}, "end-to-end p95": {ptr(6), ptr(tc.e2e)}}, bounds, nil))
			ys := opt["yAxis"].([]any)
			lat := ys[1].(map[string]any)
			if got := lat["type"] == "log"; got != tc.wantLog {
				t.Errorf("latency axis %v, want log %v", lat, tc.wantLog)
			}
			if !tc.wantLog && (lat["max"] == nil || lat["max"].(float64) < 15) {
				t.Errorf("linear latency axis ends at %v, below the 15 s bound", lat["max"])
			}
			var pos []string
			for _, s := range opt["series"].([]any) {
				if ml, ok := s.(map[string]any)["markLine"].(map[string]any); ok {
					for _, d := range ml["data"].([]any) {
						if l, ok := d.(map[string]any)["label"].(map[string]any); ok {
							pos = append(pos, l["position"].(string))
						}
					}
				}
			}
			if len(pos) != 2 || pos[0] == pos[1] {
				t.Errorf("bound labels at %q, want two different ends", pos)
			}
		})
	}
}

// TestLoadChartReference: the reference points are a scatter series of
// their own, named as not evidence, and the measured throughput line
// holds the measured rows only.
func TestLoadChartReference(t *testing.T) {
	ceiling := 8.0
	opt := option(t, LoadChartWithReference("t", []float64{1, 2, 4, 8}, []float64{100, 180, 250, 260},
		map[string][]*float64{"E2E p95": {ptr(2), ptr(3), ptr(5), ptr(9)}}, nil, &ceiling,
		[]Point{{X: 16, Y: 900}, {X: 64, Y: 2000}}))
	ss := seriesOf(t, opt)
	var ref *series
	for i := range ss {
		if ss[i].Name == ReferenceSeries {
			ref = &ss[i]
		}
	}
	if ref == nil || ref.Type != "scatter" || len(ref.Data) != 2 {
		t.Fatalf("reference series = %+v (all: %v)", ref, names(ss))
	}
	if p := ref.Data[1].Value.([]any); p[0] != 64.0 || p[1] != 2000.0 {
		t.Errorf("reference point %v", p)
	}
	if ss[0].Type != "line" || len(ss[0].Data) != 4 {
		t.Errorf("the throughput line holds %d points, want the 4 measured", len(ss[0].Data))
	}
}
