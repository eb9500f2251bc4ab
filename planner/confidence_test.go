package planner

import (
	"math"
	"strings"
	"testing"
)

// The worked numbers of docs/method.md, "Confidence".
func TestUpperOrderWorkedNumbers(t *testing.T) {
	for _, tt := range []struct {
		n     int
		p     float64
		k     int
		exist bool
	}{
		{59, 0.95, 59, true}, // 0.95^59 = 0.0485 <= 0.05: the slowest
		{58, 0.95, 0, false}, // 0.95^58 = 0.0510
		{40, 0.95, 0, false},
		{100, 0.95, 99, true},
		{200, 0.95, 196, true},
		{298, 0.99, 0, false},
		{299, 0.99, 299, true},
	} {
		k, ok := UpperOrder(tt.n, tt.p, 0.95)
		if ok != tt.exist || k != tt.k {
			t.Errorf("UpperOrder(%d, %v) = %d, %v; want %d, %v", tt.n, tt.p, k, ok, tt.k, tt.exist)
		}
	}
	if got := math.Pow(0.95, 59); math.Abs(got-0.0485) > 0.0001 {
		t.Errorf("0.95^59 = %v", got)
	}
	if n := MinSamplesForBound(0.95, 0.95); n != 59 {
		t.Errorf("p95 needs %d, want 59", n)
	}
	if n := MinSamplesForBound(0.99, 0.95); n != 299 {
		t.Errorf("p99 needs %d, want 299", n)
	}
	// The confidence the rank carries, by the binomial directly.
	if c := 1 - binomTail(100, 99, 0.95); c < 0.95 {
		t.Errorf("P(Bin(100,.95) <= 98) = %v, want >= 0.95", c)
	}
	if c := 1 - binomTail(100, 98, 0.95); c >= 0.95 {
		t.Errorf("P(Bin(100,.95) <= 97) = %v, want < 0.95 (98 is not a bound)", c)
	}
}

func TestLowerOrder(t *testing.T) {
	k, ok := LowerOrder(100, 0.95, 0.95)
	if !ok || binomTail(100, k, 0.95) < 0.95 || binomTail(100, k+1, 0.95) >= 0.95 {
		t.Errorf("LowerOrder(100) = %d, %v", k, ok)
	}
	if k != 91 {
		t.Errorf("LowerOrder(100, .95) = %d, want 91", k)
	}
}

func TestBoundPercentile(t *testing.T) {
	vals := func(n int, slow float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = 1 + float64(i)*0.001
		}
		v[n-1] = slow
		return v
	}
	// 59 requests whose slowest is 1.5 s: a conclusive pass of 15 s.
	b, _ := BoundPercentile(vals(59, 1.5), 95, 15, 0.95)
	if b.Verdict != BoundPass || b.Upper == nil || *b.Upper != 1.5 || b.UpperK != 59 {
		t.Errorf("n=59: %+v", b)
	}
	// 40 requests: no upper bound; 59 would settle it (all within).
	b, _ = BoundPercentile(vals(40, 1.5), 95, 15, 0.95)
	if b.Verdict != BoundInconclusive || b.Upper != nil || b.Settle == nil || *b.Settle != 59 {
		t.Errorf("n=40: %+v", b)
	}
	b.Label = "p95 end-to-end"
	b.describe(95)
	if !strings.Contains(b.Text, "no 95 % upper bound from 40 requests (a p95 needs 59)") || !strings.Contains(b.Text, "about 59 successful requests") {
		t.Errorf("text: %s", b.Text)
	}
	// 100 requests, 3 beyond the bound: the 99th is beyond, inconclusive.
	v := vals(100, 20)
	v[98], v[97] = 19, 18
	b, _ = BoundPercentile(v, 95, 15, 0.95)
	if b.Verdict != BoundInconclusive || b.UpperK != 99 || *b.Upper != 19 || b.Settle == nil || *b.Settle <= 100 {
		t.Errorf("n=100, 3 beyond: %+v", b)
	}
	// 100 requests, 20 beyond: the lower bound is beyond: a conclusive failure.
	v = vals(100, 20)
	for i := 80; i < 100; i++ {
		v[i] = 20
	}
	if b, _ = BoundPercentile(v, 95, 15, 0.95); b.Verdict != BoundFail {
		t.Errorf("n=100, 20 beyond: %+v", b)
	}
}

func TestClopperPearson(t *testing.T) {
	iv, _ := ClopperPearson(40, 40, 0.95)
	if math.Abs(iv.Lower-0.9119) > 0.0001 || iv.Upper != 1 {
		t.Errorf("40/40: %+v", iv)
	}
	iv, _ = ClopperPearson(97, 100, 0.95)
	// 97/100: 0.9148 to 0.9938 (exact).
	if math.Abs(iv.Lower-0.9148) > 0.0001 || math.Abs(iv.Upper-0.9938) > 0.0001 {
		t.Errorf("97/100: %+v", iv)
	}
	if !strings.Contains(iv.Text, "95 % CI 91.48 % to 99.38 %") {
		t.Errorf("text %q", iv.Text)
	}
}
