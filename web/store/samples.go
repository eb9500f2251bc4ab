package store

import (
	"encoding/binary"
	"fmt"
	"math"

	"capplan/planner"
)

// Per-request records of a row are kept apart from its figures, packed:
// a format byte, then per request TTFT, end-to-end and inter-token latency
// (float32 seconds, negative when unknown), output tokens (int32, negative
// when unknown) and a success flag byte, little-endian: 17 bytes a request.
const (
	samplesFormat = 1
	sampleSize    = 17
)

// encodeSamples packs a row's samples; nil for none (stored as NULL).
func encodeSamples(ss []planner.Sample) []byte {
	if len(ss) == 0 {
		return nil
	}
	b := make([]byte, 1, 1+len(ss)*sampleSize)
	b[0] = samplesFormat
	for _, s := range ss {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.TTFT))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.E2E))
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(s.ITL))
		b = binary.LittleEndian.AppendUint32(b, uint32(s.OutputTokens))
		ok := byte(0)
		if s.OK {
			ok = 1
		}
		b = append(b, ok)
	}
	return b
}

// decodeSamples unpacks what encodeSamples packed.
func decodeSamples(b []byte) ([]planner.Sample, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if b[0] != samplesFormat || (len(b)-1)%sampleSize != 0 {
		return nil, fmt.Errorf("store: per-request records: unknown format %d or length %d", b[0], len(b))
	}
	out := make([]planner.Sample, (len(b)-1)/sampleSize)
	p := b[1:]
	for i := range out {
		out[i] = planner.Sample{
			TTFT:         math.Float32frombits(binary.LittleEndian.Uint32(p[0:])),
			E2E:          math.Float32frombits(binary.LittleEndian.Uint32(p[4:])),
			ITL:          math.Float32frombits(binary.LittleEndian.Uint32(p[8:])),
			OutputTokens: int32(binary.LittleEndian.Uint32(p[12:])),
			OK:           p[16] == 1,
		}
		p = p[sampleSize:]
	}
	return out, nil
}
