package planner

import (
	"strings"
	"testing"
)

// The engine's figures become warnings on the row, never its verdict: 7
// preemptions, a KV cache at 97 % and 14 requests waiting each say what
// they mean; a cache at 50 % with nothing waiting says nothing.
func TestEngineWarnings(t *testing.T) {
	r := Row{Engine: &EngineMetrics{Source: "server_metrics_export.json", KVCacheMax: F(0.97), WaitingMax: F(14), Preemptions: F(7)}}
	ws := CheckRow(r, Contract{}, "")
	want := map[string]string{
		"engine-preempted": "the engine preempted 7 requests during the run (server_metrics_export.json)",
		"kv-cache-full":    "the KV cache reached 97",
		"requests-waiting": "up to 14 requests waited in the engine's own queue",
	}
	for _, w := range ws {
		if m, ok := want[w.Code]; ok && strings.Contains(w.Message, m) {
			delete(want, w.Code)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing %v in %+v", want, ws)
	}
	calm := Row{Engine: &EngineMetrics{Source: "s.json", KVCacheMax: F(0.5), WaitingMax: F(0), Preemptions: F(0)}}
	for _, w := range CheckRow(calm, Contract{}, "") {
		if strings.HasPrefix(w.Code, "engine") || w.Code == "kv-cache-full" || w.Code == "requests-waiting" {
			t.Errorf("a calm engine warned: %+v", w)
		}
	}
}
