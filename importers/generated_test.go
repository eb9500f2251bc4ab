package importers

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/guidellmgen"
)

// passes applies the demo objective: success >= 99 %, p95 TTFT <= 2 s,
// p95 end-to-end <= 15 s (errors stay in the denominator).
func passes(r planner.Row) bool {
	if r.Attempted == nil || r.Successful == nil || r.TTFT.P95 == nil || r.E2E.P95 == nil {
		return false
	}
	return float64(*r.Successful) >= 0.99*float64(*r.Attempted) && *r.TTFT.P95 <= 2 && *r.E2E.P95 <= 15
}

// TestGeneratedReport imports what guidellmgen writes: the default report
// passes the demo objective at 1, 2, 4 and 8 streams and fails at 10.
func TestGeneratedReport(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  guidellmgen.Config
		kind planner.LoadKind
	}{
		{"default", guidellmgen.Config{}, planner.LoadConcurrency},
		{"rate", guidellmgen.Config{Kind: guidellmgen.Rate}, planner.LoadRate},
		{"many requests", guidellmgen.Config{RequestsPerRow: 1000, Seed: 7}, planner.LoadConcurrency},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := guidellmgen.Write(&buf, c.cfg); err != nil {
				t.Fatal(err)
			}
			f, err := Parse("demo.json", &buf, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if f.Model != "meta-llama/Llama-3.1-8B-Instruct" || f.Source.FormatVersion != "D (0.5-0.6)" {
				t.Errorf("model %q, format %+v", f.Model, f.Source)
			}
			want := []bool{true, true, true, true, false}
			if len(f.Rows) != len(want) {
				t.Fatalf("%d rows", len(f.Rows))
			}
			for i, r := range f.Rows {
				if r.LoadKind != c.kind || r.Load == nil || *r.Load != []float64{1, 2, 4, 8, 10}[i] {
					t.Errorf("row %d: load %s %v", i, r.LoadKind, r.Load)
				}
				if got := passes(r); got != want[i] {
					t.Errorf("row %d (load %v): passes = %v, want %v (ok %d/%d, p95 ttft %.3f s, p95 e2e %.3f s)",
						i, *r.Load, got, want[i], *r.Successful, *r.Attempted, *r.TTFT.P95, *r.E2E.P95)
				}
				if r.IdenticalPrompts == nil || *r.IdenticalPrompts {
					t.Errorf("row %d: identical prompts = %v, want false", i, r.IdenticalPrompts)
				}
			}
		})
	}
}

// TestGeneratorDeterministic checks that one Config always gives the same
// bytes, and that TargetBytes sizes the file.
func TestGeneratorDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	if err := guidellmgen.Write(&a, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	if err := guidellmgen.Write(&b, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two writes of the default config differ")
	}
	for _, size := range []int64{1 << 20, 8 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			var buf bytes.Buffer
			if err := guidellmgen.Write(&buf, guidellmgen.Config{TargetBytes: size}); err != nil {
				t.Fatal(err)
			}
			if n := int64(buf.Len()); n < size*8/10 || n > size*12/10 {
				t.Errorf("%d bytes for a target of %d", n, size)
			}
		})
	}
	if err := guidellmgen.Write(&a, guidellmgen.Config{Loads: []float64{0}}); err == nil {
		t.Error("a zero load was accepted")
	}
}

// TestIdenticalPrompts reads the prompts of the request bodies: the same
// prompt in every request is flagged; one request that differs, even the
// last, clears the flag of its load level only.
func TestIdenticalPrompts(t *testing.T) {
	same, err := os.ReadFile("testdata/guidellm_d_identical.json")
	if err != nil {
		t.Fatal(err)
	}
	key := []byte(`\"prompt\":\"`)
	if n := bytes.Count(same, key); n != 8 {
		t.Fatalf("%d prompts in the fixture, want 4 in each of its 2 benchmarks", n)
	}
	last := bytes.LastIndex(same, key) + len(key)
	lastDiffers := append(append(append([]byte{}, same[:last]...), "another "...), same[last:]...)
	for _, c := range []struct {
		name string
		data []byte
		want [2]bool
	}{
		{"the same prompt in every request", same, [2]bool{true, true}},
		{"the last request differs", lastDiffers, [2]bool{true, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("identical.json", bytes.NewReader(c.data), Options{})
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range f.Rows {
				if r.IdenticalPrompts == nil || *r.IdenticalPrompts != c.want[i] {
					t.Errorf("row %d: identical prompts = %v, want %v", i, r.IdenticalPrompts, c.want[i])
				}
			}
		})
	}
}
