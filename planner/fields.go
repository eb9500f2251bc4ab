package planner

import (
	"strconv"
	"strings"
)

// FieldSection is the anchor of the report section where the input named
// by a field key is edited: "costs" for self_hosted.* and quotes[...].*,
// "scenarios" for scenarios[i].*, "recommendation", "envelope" for the
// admission choices, "overload", "candidates", "residency" for routes[i].*,
// "matrix" for what is typed per row, and "contract" for the contract and
// anything else.
func FieldSection(key string) string {
	head := key
	if i := strings.IndexAny(head, ".["); i >= 0 {
		head = head[:i]
	}
	switch head {
	case "self_hosted", "quotes", "quote", "currency", "token_basis", "max_boxes", "stale_after_days", "as_of", "exchange_rates", "tax_basis", "provider":
		return "costs"
	case "scenarios", "scenario":
		return "scenarios"
	case "recommendation":
		return "recommendation"
	case "admission":
		return "envelope"
	case "overload":
		return "overload"
	case "candidates", "candidate":
		return "candidates"
	case "routes", "route":
		return "residency"
	case "rows", "observed":
		return "matrix"
	}
	return "contract"
}

// FieldLabel names the input a field key refers to as a person knows it
// from the forms: "self_hosted.labour_rate" is "Operator labour loaded
// rate", "routes[0].cold_start_s" is "Route 1: cold start",
// "quotes[api-a].input_per_m_tokens" is "Quote api-a: input price per 1M
// tokens". Keys of a Figure's parts name the figure and the part:
// "self_hosted.hosting.evidence_date" is "Hosting (evidence date)". A key it does not know reads as its words: "a_b.c_d" is
// "a b c d". Keys stay the names in FieldError.Field; labels are for people.
func FieldLabel(key string) string {
	key = strings.TrimSpace(key)
	if key == "" {
		return ""
	}
	k := strings.TrimPrefix(key, "contract.")
	// An indexed group: quotes[i], scenarios[i], routes[i], candidates[i],
	// rows[i], recommendation.gates[i].
	if head, idx, rest, ok := splitIndex(k); ok {
		if g, ok := indexedGroups[head]; ok {
			name := idx
			if n, err := strconv.Atoi(idx); err == nil {
				name = strconv.Itoa(n + 1)
			}
			who := g.noun + " " + name
			if rest == "" {
				return who
			}
			return who + ": " + partLabel(g.fields, rest)
		}
	}
	if head, rest, ok := strings.Cut(k, "."); ok {
		if g, ok := prefixGroups[head]; ok {
			return capitalize(partLabel(g, rest))
		}
	}
	if l, ok := bareLabels[k]; ok {
		return l
	}
	if l := figurePart(bareLabels, k); l != "" {
		return l
	}
	return fallbackLabel(key)
}

// MissingLabels is Missing as labels, for sentences: "Environment, Proxy /
// release revision, …". Missing keeps the keys, which mark the form fields.
func (c Contract) MissingLabels() []string {
	var out []string
	for _, k := range c.Missing() {
		switch k {
		case "objective.ttft_max_s":
			out = append(out, "A latency bound (TTFT or end-to-end at most)")
		case "stop_rule":
			out = append(out, "Stop rule or error limit")
		default:
			out = append(out, FieldLabel(k))
		}
	}
	return out
}

// splitIndex splits "routes[0].cold_start_s" into "routes", "0" and
// "cold_start_s"; ok is false when the key has no index.
func splitIndex(k string) (head, idx, rest string, ok bool) {
	open := strings.IndexByte(k, '[')
	if open <= 0 {
		return "", "", "", false
	}
	close := strings.IndexByte(k[open:], ']')
	if close < 0 {
		return "", "", "", false
	}
	close += open
	head, idx, rest = k[:open], k[open+1:close], strings.TrimPrefix(k[close+1:], ".")
	return head, idx, rest, true
}

// partLabel labels the part of a group's key after its prefix, e.g.
// "cold_start_s" of a route, or "hosting.evidence_date" of the costs.
func partLabel(fields map[string]string, rest string) string {
	if l, ok := fields[rest]; ok {
		return l
	}
	if l := figurePart(fields, rest); l != "" {
		return l
	}
	return fallbackLabel(rest)
}

// figurePart labels a Figure's part, "hosting.evidence_date" as
// "hosting (evidence date)"; "" when the figure is unknown.
func figurePart(fields map[string]string, k string) string {
	i := strings.LastIndexByte(k, '.')
	if i < 0 {
		return ""
	}
	fig, ok := fields[k[:i]]
	part, ok2 := figureParts[k[i+1:]]
	if !ok || !ok2 {
		return ""
	}
	return fig + " (" + part + ")"
}

// FieldLabelKnown reports whether FieldLabel names key from the forms'
// labels rather than reading it as its words.
func FieldLabelKnown(key string) bool {
	return strings.TrimSpace(key) != "" && FieldLabel(key) != fallbackLabel(strings.TrimSpace(key))
}

// fallbackLabel reads a key as its words: "a_b.c_d" is "a b c d",
// "x[2].y" is "x 2 y".
func fallbackLabel(k string) string {
	r := strings.NewReplacer("_", " ", ".", " ", "[", " ", "]", " ")
	return strings.Join(strings.Fields(r.Replace(k)), " ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var figureParts = map[string]string{
	"evidence_date": "evidence date", "source": "source", "unit": "unit", "amount": "amount",
}

type indexedGroup struct {
	noun   string
	fields map[string]string
}

var (
	quoteFields = map[string]string{
		// and the cost inputs of QuoteFields (registry.go)
		"name": "name", "provider": "provider", "model": "model", "currency": "currency",
		"evidence_date": "evidence date", "source": "source",
	}
	scenarioFields = map[string]string{
		"name": "name", "monthly_requests": "monthly requests", "busy_hour_share": "busy-hour share",
		"busy_hour_kind": "busy hour given as", "peak_rate": "peak request rate (req/s)", "busy_hour": "busiest hour",
	}
	routeFields = map[string]string{
		"name": "name", "model": "model", "residency": "resident or switched", "cold_start_s": "cold start",
		"memory_budget_gib": "memory budget (GiB)", "admitted_concurrency": "admitted concurrency",
		"queue_policy": "queue policy", "owner": "owner", "overload_outcome": "overload outcome",
	}
	candidateFields = map[string]string{
		"name": "name", "baseline": "baseline", "model": "model", "artifact": "artifact", "artifact_hash": "artifact hash",
		"quantization": "quantization or runtime change", "gate": "regression gate", "gate.gate": "regression gate",
		"gate.cases": "regression gate cases", "gate.pass": "regression gate outcome", "gate.date": "regression gate date",
		"artifact_size_gib": "artifact size (GiB)", "loaded_memory_gib": "loaded memory (GiB)",
		"cold_start_s": "cold start", "notes": "notes", "rows": "rows",
	}
	observedFields = map[string]string{
		"peak_memory_gib": "peak memory (GiB)", "headroom": "memory headroom at peak", "oom": "out-of-memory error",
		"restart": "worker restart", "power_watts": "average power (W)", "stopped": "stopped",
		"stop_reason": "why it was stopped", "model": "model (typed: the file named none)",
		"replicas": "replicas that served it",
	}
	gateFields = map[string]string{"name": "name", "pass": "outcome", "note": "note"}
)

// indexedGroups are the lists whose items are named "Route 1", "Quote X".
var indexedGroups = map[string]indexedGroup{
	"quotes":                  {"Quote", quoteFields},
	"scenarios":               {"Scenario", scenarioFields},
	"routes":                  {"Route", routeFields},
	"candidates":              {"Candidate", candidateFields},
	"rows":                    {"Row", withPrefix(observedFields, "observed.")},
	"recommendation.gates":    {"Gate", gateFields},
	"recommendation.gate":     {"Gate", gateFields},
	"recommendation.triggers": {"Trigger", map[string]string{}},
	"objective.bounds": {"Objective bound", map[string]string{
		"figure": "what it limits", "percentile": "percentile", "bound": "limit", "unit": "unit",
	}},
	"exchange_rates": {"Exchange rate", map[string]string{
		"currency": "currency", "rate": "rate", "rate.source": "source", "rate.evidence_date": "date",
		"rate.unit": "unit", "rate.amount": "rate",
	}},
}

// prefixGroups are the records whose keys read "prefix.field".
var prefixGroups = map[string]map[string]string{
	// "self_hosted": the labels of SelfHostedFields (registry.go)
	"quote":     quoteFields,
	"scenario":  scenarioFields,
	"route":     routeFields,
	"candidate": candidateFields,
	"gate": {
		"gate": "regression gate", "cases": "regression gate cases", "pass": "regression gate outcome", "date": "regression gate date",
	},
	"objective": {
		"percentile": "objective percentile", "min_success": "success rate at least", "ttft_max_s": "TTFT at most",
		"e2e_max_s": "end-to-end at most", "tpot_max_s": "TPOT at most", "min_speed_tok_s": "output speed per user at least", "itl_max_s": "ITL at most",
		"min_headroom": "memory headroom at least", "no_oom": "no OOM or restart",
	},
	"workload": {
		"prompt_tokens": "prompt tokens", "output_tokens": "output tokens", "data": "data (synthetic or dataset)",
		"prompts": "prompts (identical or varied)", "dataset": "dataset", "tolerance": "workload tolerance",
	},
	"owners": {
		"test_owner": "test owner", "observer": "observer", "stop_authority": "stop authority", "window": "test window",
	},
	"admission": {
		"override_max_in_flight": "max in flight (override)", "override_reason": "reason for the override",
		"queue_size": "queue size", "max_queue_age_s": "max queue age (s)", "retry_after_s": "Retry-After (s)",
		"client_max_retries": "client retries at most",
	},
	"reference": {
		"source": "reference source", "date": "reference date", "gpu": "reference GPU", "model": "reference model",
		"precision": "reference precision", "framework": "reference framework", "isl": "reference input tokens (ISL)",
		"osl": "reference output tokens (OSL)", "intvty": "reference tok/s per user", "output_tput_per_gpu": "reference output tok/s per GPU",
		"file": "reference file",
	},
	"overload": {
		"sent": "what was sent above the limit", "outcome": "overload outcome", "retry_after": "Retry-After sent",
		"worker_healthy": "worker stayed healthy", "recovered": "service recovered", "date": "overload test date",
		"notes": "overload test notes",
	},
	"observed": observedFields,
	"recommendation": {
		"decision": "decision (keep, change or stop)", "owner": "recommendation owner", "review_date": "review date",
		"expiry": "expiry", "triggers": "triggers", "gates": "non-financial gates", "notes": "recommendation notes",
		"justification": "why this decision",
	},
}

// bareLabels are keys without a prefix: the contract's own fields, the
// report's settings, and the fields of a record validated on its own
// (an observed row, a candidate, a route, an overload test).
var bareLabels = map[string]string{
	"justification": "Why this decision",
	"environment":   "Environment", "service": "Service and framing", "release_revision": "Proxy / release revision",
	"baseline_model": "Baseline model", "artifact": "Artifact", "artifact_hash": "Artifact hash",
	"candidates": "Candidate artifacts and quantization", "vllm_version": "vLLM version or image digest",
	"benchmark_tool": "Benchmark tool", "tool_version": "Tool version", "driver": "Driver", "device": "Device",
	"device_memory_gib": "Device memory (GiB)", "host": "Host", "test_date": "Test date",
	"workload": "Workload", "load_kind": "Load kind", "loads": "Load rows", "row_duration_s": "Per-row duration (s)",
	"stop_after_errors": "Stop a row after this many errors", "stop_rule": "Stop rule", "objective": "Objective",
	"admission_proposal": "Admission proposal", "rollback": "Rollback", "owners": "Owners",
	"refused_target": "Share the sizing may refuse", "soak_hours": "Soak (hours)", "confidence": "Confidence of the verdicts",

	"currency": "Currency", "as_of": "Report date", "stale_after_days": "Evidence is stale after (days)",
	"token_basis": "Tokens priced for API quotes", "max_boxes": "Boxes the plan allows",
	"self_hosted": "Self-hosted costs", "quotes": "API quotes", "scenarios": "Demand scenarios",
	"routes": "Routes", "recommendation": "Recommendation", "admission": "Admission limit", "overload": "Overload test",

	// An observed row, validated on its own.
	"peak_memory_gib": "Peak memory (GiB)", "headroom": "Memory headroom at peak", "oom": "Out-of-memory error",
	"restart": "Worker restart", "power_watts": "Average power (W)", "stopped": "Stopped", "stop_reason": "Why it was stopped",
	"replicas": "Replicas that served it",
	// A candidate, a route or an overload test, validated on its own.
	"name": "Name", "model": "Model", "quantization": "Quantization or runtime change",
	"artifact_size_gib": "Artifact size (GiB)", "loaded_memory_gib": "Loaded memory (GiB)", "cold_start_s": "Cold start (s)",
	"residency": "Resident or switched", "memory_budget_gib": "Memory budget (GiB)",
	"admitted_concurrency": "Admitted concurrency", "queue_policy": "Queue policy", "owner": "Owner",
	"overload_outcome": "Overload outcome", "sent": "What was sent above the limit", "outcome": "Outcome",
	"retry_after": "Retry-After sent", "worker_healthy": "Worker stayed healthy", "recovered": "Service recovered",
	"date": "Date", "notes": "Notes", "evidence_date": "Evidence date", "source": "Source",
	// An amendment of the frozen contract.
	"reason": "Reason for the change", "field": "What changes",
}

// withPrefix copies m with every key prefixed, and keeps the bare keys.
func withPrefix(m map[string]string, p string) map[string]string {
	out := make(map[string]string, 2*len(m))
	for k, v := range m {
		out[k], out[p+k] = v, v
	}
	return out
}
