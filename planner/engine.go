package planner

import "fmt"

// EngineMetrics is what the serving engine reported over one row's run,
// from its Prometheus metrics scraped during the run (docs/method.md,
// "Engine metrics of a row"): the fullest its KV cache got, the most
// requests waiting in its own queue and running at once, and the requests
// it preempted. Each is nil when the engine did not report it.
type EngineMetrics struct {
	// Source names the file the figures come from.
	Source string `json:"source"`
	// KVCacheMax is the peak KV-cache usage, a fraction (1 is full).
	KVCacheMax *float64 `json:"kv_cache_max,omitempty"`
	// WaitingMax and RunningMax are the peak requests waiting and running.
	WaitingMax *float64 `json:"waiting_max,omitempty"`
	RunningMax *float64 `json:"running_max,omitempty"`
	// Preemptions is how many requests the engine preempted in the run.
	Preemptions *float64 `json:"preemptions,omitempty"`
}

// KVCacheFull is the KV-cache usage from which the cache counts as full:
// the engine then preempts or queues rather than admitting more.
const KVCacheFull = 0.95

// engineWarnings are what a row's engine metrics say about its result: a
// row whose engine preempted requests or filled its KV cache ran at the
// cache's limit, and its latencies include the recomputation or the wait;
// requests waiting in the engine's own queue mean the admitted load was
// more than it ran at once. They are warnings, never a verdict: the
// latencies measured already carry the effect.
func engineWarnings(e *EngineMetrics) []Warning {
	if e == nil {
		return nil
	}
	var ws []Warning
	if e.Preemptions != nil && *e.Preemptions > 0 {
		ws = append(ws, Warning{Code: "engine-preempted", Message: fmt.Sprintf("the engine preempted %s requests during the run (%s): its KV cache ran out, and the preempted requests were recomputed; this load is at the cache's limit", fmtNum(*e.Preemptions), e.Source)})
	}
	if e.KVCacheMax != nil && *e.KVCacheMax >= KVCacheFull {
		ws = append(ws, Warning{Code: "kv-cache-full", Message: fmt.Sprintf("the KV cache reached %s full during the run (%s): little room is left for longer prompts or more requests at once", fmtPct(*e.KVCacheMax), e.Source)})
	}
	if e.WaitingMax != nil && *e.WaitingMax > 0 {
		ws = append(ws, Warning{Code: "requests-waiting", Message: fmt.Sprintf("up to %s requests waited in the engine's own queue (%s): it admitted more than it ran at once, and their wait is in the TTFT", fmtNum(*e.WaitingMax), e.Source)})
	}
	return ws
}
