package importers

import "encoding/json"

// Decode targets for the parts of a GuideLLM report that are read whole.
// Only the fields the importer uses are listed.

// gDist is a distribution summary; missing fields stay unset.
type gDist struct {
	Mean        num `json:"mean"`
	Median      num `json:"median"`
	Count       num `json:"count"`
	Percentiles struct {
		P50 num `json:"p50"`
		P95 num `json:"p95"`
		P99 num `json:"p99"`
	} `json:"percentiles"`
}

// gStatusDist is a distribution split by request status.
type gStatusDist struct {
	Successful *gDist `json:"successful"`
	Errored    *gDist `json:"errored"`
	Incomplete *gDist `json:"incomplete"`
	Total      *gDist `json:"total"`
}

// gCounts is a per-status request count.
type gCounts struct {
	Successful num `json:"successful"`
	Errored    num `json:"errored"`
	Incomplete num `json:"incomplete"`
	Total      num `json:"total"`
}

// gMetrics is benchmarks[i].metrics.
type gMetrics struct {
	RequestTotals         *gCounts     `json:"request_totals"`
	RequestsPerSecond     *gStatusDist `json:"requests_per_second"`
	RequestConcurrency    *gStatusDist `json:"request_concurrency"`
	RequestLatency        *gStatusDist `json:"request_latency"`
	PromptTokenCount      *gStatusDist `json:"prompt_token_count"`
	OutputTokenCount      *gStatusDist `json:"output_token_count"`
	TimeToFirstToken      *gStatusDist `json:"time_to_first_token_ms"`
	TimeToFirstOutput     *gStatusDist `json:"time_to_first_output_token_ms"`
	TimePerOutputToken    *gStatusDist `json:"time_per_output_token_ms"`
	InterTokenLatency     *gStatusDist `json:"inter_token_latency_ms"`
	OutputTokensPerSecond *gStatusDist `json:"output_tokens_per_second"`
}

// gStrategy is the scheduling strategy of one benchmark.
type gStrategy struct {
	Type    lstr `json:"type_"`
	Streams num  `json:"streams"`
	Rate    num  `json:"rate"`
}

// gWindow is a warmup or cooldown setting of families C-E.
type gWindow struct {
	Percent num `json:"percent"`
	Value   num `json:"value"`
}

// gBenchArgs is benchmarks[i].args in family B, and the outer args of family A.
type gBenchArgs struct {
	Strategy         *gStrategy `json:"strategy"`
	WarmupNumber     num        `json:"warmup_number"`
	WarmupDuration   num        `json:"warmup_duration"`
	CooldownNumber   num        `json:"cooldown_number"`
	CooldownDuration num        `json:"cooldown_duration"`
	Model            lstr       `json:"model"` // family A
}

// gBenchConfig is benchmarks[i].config in families C-E.
type gBenchConfig struct {
	Strategy *gStrategy `json:"strategy"`
	Warmup   *gWindow   `json:"warmup"`
	Cooldown *gWindow   `json:"cooldown"`
	Backend  *struct {
		Model lstr `json:"model"`
	} `json:"backend"`
	// Profile is the run's profile as GuideLLM 0.7+ records it with each
	// benchmark: its arguments.
	Profile *gProfile `json:"profile"`
}

// gProfile is a profile's arguments, of which its kind is read.
type gProfile struct {
	Kind lstr `json:"kind"`
}

// gKneeConclusion is one of the report's conclusions; the knee profile's
// (kind knee_detection) holds its initial and final knee analyses, and
// the final analysis's throughput result is the knee.
type gKneeConclusion struct {
	Kind  lstr `json:"kind"`
	Final *struct {
		Throughput *gKneeResult `json:"throughput"`
	} `json:"final"`
}

// gKneeResult is a knee analysis's throughput result: whether a knee was
// found, why, where (the fitted knee, in streams), and the first measured
// concurrency at or above it.
type gKneeResult struct {
	Status                lstr `json:"status"`
	Reason                lstr `json:"reason"`
	Knee                  num  `json:"knee"`
	SaturationConcurrency num  `json:"saturation_concurrency"`
}

// gSchedMetrics is benchmarks[i].scheduler_metrics (C-E) or run_stats (B).
type gSchedMetrics struct {
	MeasureStart num      `json:"measure_start_time"`
	MeasureEnd   num      `json:"measure_end_time"`
	RequestsMade *gCounts `json:"requests_made"`
}

// gMetadata is the top-level metadata of families D and E.
type gMetadata struct {
	Version         num  `json:"version"`
	GuidellmVersion lstr `json:"guidellm_version"`
}

// gRunArgs is the top-level args of families C and D.
type gRunArgs struct {
	Model         lstr            `json:"model"`
	Profile       lstr            `json:"profile"`
	Rate          json.RawMessage `json:"rate"`
	BackendKwargs *struct {
		Model lstr `json:"model"`
	} `json:"backend_kwargs"`
}

// gRunConfig is the top-level config of family E.
type gRunConfig struct {
	Spec *struct {
		Backend *struct {
			Model lstr `json:"model"`
		} `json:"backend"`
		Profile *struct {
			Kind lstr            `json:"kind"`
			Rate json.RawMessage `json:"rate"`
		} `json:"profile"`
	} `json:"spec"`
}

// rawOrNull keeps the raw bytes of a value, reusing its buffer; null is empty.
type rawOrNull []byte

// UnmarshalJSON implements json.Unmarshaler.
func (r *rawOrNull) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = (*r)[:0]
		return nil
	}
	*r = append((*r)[:0], b...)
	return nil
}

// gServerMetrics is one summary of benchmarks[i].server_metrics, what
// GuideLLM's server-metrics collector scraped from one source (such as
// vLLM's /metrics) over the benchmark's measurement window: gauges by
// Prometheus family name, each series with its distribution summary;
// counters (their family name without _total) with their increase. The
// scraped samples themselves are not read.
type gServerMetrics struct {
	Source       lstr `json:"source"`
	Scrapes      num  `json:"scrapes"`
	ScrapeErrors num  `json:"scrape_errors"`
	Gauges       map[string][]struct {
		Summary *struct {
			Max num `json:"max"`
		} `json:"summary"`
	} `json:"gauges"`
	Counters map[string][]struct {
		Increase num `json:"increase"`
	} `json:"counters"`
}
