package importers

import "testing"

func TestPercentileMethods(t *testing.T) {
	s := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, tc := range []struct {
		p            float64
		nearest, lin float64
	}{{50, 5, 5.5}, {95, 10, 9.55}, {99, 10, 9.91}} {
		if got := nearestRank(s, tc.p); got != tc.nearest {
			t.Errorf("nearest p%g = %g, want %g", tc.p, got, tc.nearest)
		}
		if got := linearRank(s, tc.p); got < tc.lin-1e-9 || got > tc.lin+1e-9 {
			t.Errorf("linear p%g = %g, want %g", tc.p, got, tc.lin)
		}
	}
}

// TestComputedBesideReportedStaysOrdered: a vLLM file that reports p99 TTFT
// but not p95 gets a computed p95 no larger than the reported p99.
func TestComputedBesideReportedStaysOrdered(t *testing.T) {
	f, err := ParseFile(real("vllm", "LambdaLabsML__vllm-benchmark__Meta-Llama-3.1-8B-FP8_tp1_len2048.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Rows {
		for name, st := range map[string]struct{ p95, p99 *float64 }{"ttft": {r.TTFT.P95, r.TTFT.P99}, "e2e": {r.E2E.P95, r.E2E.P99}} {
			if st.p95 != nil && st.p99 != nil && *st.p95 > *st.p99 {
				t.Errorf("%s p95 %g > p99 %g", name, *st.p95, *st.p99)
			}
		}
	}
}
