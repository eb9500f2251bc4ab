package store

import (
	"reflect"
	"testing"

	"capplan/planner"
)

func TestSamplesRoundTrip(t *testing.T) {
	in := []planner.Sample{
		{TTFT: 0.25, E2E: 12.5, ITL: 0.031, OutputTokens: 256, OK: true},
		{TTFT: planner.NoFigure, E2E: planner.NoFigure, ITL: planner.NoFigure, OutputTokens: planner.NoFigure, OK: false},
	}
	b := encodeSamples(in)
	if len(b) != 1+2*sampleSize {
		t.Fatalf("%d bytes for 2 requests", len(b))
	}
	out, err := decodeSamples(b)
	if err != nil || !reflect.DeepEqual(out, in) {
		t.Fatalf("decoded %+v, %v", out, err)
	}
	if encodeSamples(nil) != nil {
		t.Error("no samples should store as NULL")
	}
	if _, err := decodeSamples([]byte{9, 1, 2}); err == nil {
		t.Error("a broken blob decodes")
	}
}
