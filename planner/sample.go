package planner

// Sample is one measured request of a row as the benchmark tool recorded
// it: how long it took, how long its answer was and whether it succeeded.
// Never its prompt or its answer. A row whose file carries per-request
// records keeps one Sample per request of its measured window (warmup and
// cooldown excluded where the file marks them), in the file's order, so
// that goodput, the requests that each met every latency bound of the
// objective, is counted rather than inferred from percentiles.
//
// Times are seconds as float32, to keep a sample small (20 bytes); a
// negative figure means the file does not hold it (NoFigure), never zero.
type Sample struct {
	// TTFT is the time to first token, E2E the whole request.
	TTFT float32
	E2E  float32
	// ITL is this request's mean time between output tokens; when the file
	// does not hold it, it is derived from TTFT, E2E and OutputTokens where
	// those are known (see Sample.InterToken).
	ITL float32
	// OutputTokens is the tokens the request produced; negative if unknown.
	OutputTokens int32
	// OK is true when the request completed without error. Errored,
	// cancelled and incomplete requests are recorded with OK false.
	OK bool
}

// NoFigure marks a per-request figure the file does not hold.
const NoFigure = -1

// Has reports whether a per-request figure is known.
func Has(v float32) bool { return v >= 0 }

// InterToken is the request's mean time between output tokens: ITL as
// recorded, else (E2E - TTFT) / (OutputTokens - 1) when those are known and
// the request produced at least two tokens. ok is false when neither way
// gives it.
func (s Sample) InterToken() (v float64, ok bool) {
	if Has(s.ITL) {
		return float64(s.ITL), true
	}
	if Has(s.TTFT) && Has(s.E2E) && s.OutputTokens >= 2 && s.E2E >= s.TTFT {
		return float64(s.E2E-s.TTFT) / float64(s.OutputTokens-1), true
	}
	return 0, false
}
