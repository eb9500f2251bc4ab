package importers

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"capplan/planner"
)

// AIPerf scrapes the serving engine's Prometheus endpoint during a run and
// writes what it saw to server_metrics_export.json beside the run's
// profile_export_aiperf.json: "summary" (the endpoints and the collection
// window) and "metrics", each metric by its Prometheus name with a
// "series" per endpoint and label set, each with its "stats" (a gauge's
// avg, min, max, percentiles; a counter's total increase over the run).
// It holds no rows: its figures complete the AIPerf row of the same run
// (ApplyServerMetrics), matched by benchmark_id.

// ServerMetrics is what one server_metrics_export.json says about its run.
type ServerMetrics struct {
	File        string
	BenchmarkID string
	Engine      planner.EngineMetrics
	// Paths says where each figure was read ("kv_cache_max": "metrics.vllm:kv_cache_usage_perc.series[0].stats.max").
	Paths map[string]string
}

// serverMetricNames are the engine metrics read, by figure, in the names
// vLLM (current and older) and SGLang give them.
var serverMetricNames = []struct {
	figure, stat string
	names        []string
}{
	{"kv_cache_max", "max", []string{"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage"}},
	{"waiting_max", "max", []string{"vllm:num_requests_waiting", "sglang:num_queue_reqs"}},
	{"running_max", "max", []string{"vllm:num_requests_running", "sglang:num_running_reqs"}},
	{"preemptions", "total", []string{"vllm:num_preemptions", "vllm:num_preemptions_total"}},
}

// isAIPerfServerMetrics tells a server_metrics_export.json by its keys.
func isAIPerfServerMetrics(o jsonObj) bool {
	_, sum := o["summary"]
	_, met := o["metrics"]
	_, ver := o["aiperf_version"]
	_, sch := o["schema_version"]
	return sum && met && (ver || sch) && strings.Contains(string(o["summary"]), `"endpoints_`)
}

// parseAIPerfServerMetrics reads a server_metrics_export.json into
// f.ServerMetrics; the file holds no rows.
func parseAIPerfServerMetrics(f *File, d doc) error {
	o, p := d.obj, d.prefix
	var ver lstr
	o.get(p, "aiperf_version", &ver)
	f.Source.Format, f.Source.FormatVersion, f.Source.ToolVersion = "aiperf", "server metrics", string(ver)
	sm := &ServerMetrics{File: f.Source.File, Paths: map[string]string{}}
	sm.Engine.Source = f.Source.File
	var id lstr
	o.get(p, "benchmark_id", &id)
	sm.BenchmarkID = strings.TrimSpace(string(id))
	var keys []string
	for _, m := range serverMetricNames {
		keys = append(keys, m.names...)
	}
	type series struct {
		Stats map[string]num `json:"stats"` // num: a bare NaN is a reading refused by name, not a type error
	}
	type metric struct {
		Series []series `json:"series"`
	}
	var ms map[string]metric
	if _, err := o.getFields(p, "metrics", &ms, keys...); err != nil {
		return err
	}
	found := 0
	for _, m := range serverMetricNames {
		var best *float64
		for _, name := range m.names {
			mt, ok := ms[name]
			if !ok {
				continue
			}
			for i, s := range mt.Series {
				n := s.Stats[m.stat]
				if !n.set {
					continue
				}
				v := &n.v
				path := fmt.Sprintf("%smetrics.%s.series[%d].stats.%s", p, name, i, m.stat)
				if math.IsNaN(*v) || math.IsInf(*v, 0) || *v < 0 || m.figure == "kv_cache_max" && *v > 1 {
					shown := planner.DisplayInput(*v)
					if math.IsNaN(*v) || math.IsInf(*v, 0) {
						shown = strconv.FormatFloat(*v, 'g', -1, 64) // NaN, +Inf: what the file says
					}
					return fmt.Errorf("%s: %s is not a reading an engine reports", path, shown)
				}
				// several engines or label sets: the fullest (a counter: the sum)
				switch {
				case best == nil:
					best = planner.F(*v)
					sm.Paths[m.figure] = path
				case m.stat == "total":
					*best += *v
					sm.Paths[m.figure] += " + " + path
				case *v > *best:
					*best = *v
					sm.Paths[m.figure] = path
				}
			}
			if best != nil {
				break
			}
		}
		if best == nil {
			continue
		}
		found++
		switch m.figure {
		case "kv_cache_max":
			sm.Engine.KVCacheMax = best
		case "waiting_max":
			sm.Engine.WaitingMax = best
		case "running_max":
			sm.Engine.RunningMax = best
		case "preemptions":
			sm.Engine.Preemptions = best
		}
	}
	if found == 0 {
		return fmt.Errorf("%sAIPerf's server-metrics export names none of the engine metrics read (KV-cache usage, requests waiting or running, preemptions: %s)", d.where(), strings.Join(keys, ", "))
	}
	f.ServerMetrics = sm
	return nil
}

// ApplyServerMetrics gives the AIPerf rows of one upload their engine's
// metrics: each server-metrics export goes to the AIPerf result of the same
// benchmark_id, or, when the upload holds one of each, to that one. It
// returns the error that names what cannot be matched.
func ApplyServerMetrics(files []*File, sms []*ServerMetrics) error {
	var aiperf []*File
	for _, f := range files {
		if f.Source.Format == "aiperf" && len(f.Rows) > 0 {
			aiperf = append(aiperf, f)
		}
	}
	for _, sm := range sms {
		var to *File
		for _, f := range aiperf {
			if sm.BenchmarkID != "" && f.BenchmarkID == sm.BenchmarkID {
				to = f
			}
		}
		if to == nil && len(aiperf) == 1 && len(sms) == 1 {
			to = aiperf[0]
		}
		if to == nil {
			msg := "AIPerf's server-metrics export holds no results, only what the engine reported over a run: upload it together with the run's profile_export_aiperf.json"
			if len(aiperf) > 0 {
				msg = fmt.Sprintf("no AIPerf result of this upload has its benchmark_id %q: upload each run's server_metrics_export.json with that run's profile_export_aiperf.json", sm.BenchmarkID)
			}
			return &Error{File: sm.File, Msg: msg}
		}
		for i := range to.Rows {
			r := &to.Rows[i]
			e := sm.Engine
			r.Engine = &e
			if r.Paths == nil {
				r.Paths = map[string]string{}
			}
			for k, v := range sm.Paths {
				r.Paths["engine."+k] = sm.File + ": " + v
			}
		}
	}
	return nil
}
