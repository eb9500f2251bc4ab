// Package telemetrygen writes a synthetic nvidia-smi CSV log, as
// nvidia-smi --query-gpu=timestamp,power.draw,memory.used,memory.total,utilization.gpu,temperature.gpu --format=csv -l 1
// writes it, covering a run of load rows back to back: power and memory
// step up with each row while utilisation stays near 100 %, as it does
// under continuous batching. For tests and the demo report.
package telemetrygen

import (
	"bufio"
	"fmt"
	"io"
	"time"
)

// Row is one load level's steady state.
type Row struct {
	DurationS  float64
	Watts      float64
	MemUsedMiB float64
	UtilPct    float64
	TempC      float64
}

// Config is one log.
type Config struct {
	// Start is when the first row began; the log begins LeadS before it
	// and ends LeadS after the last row (idle readings).
	Start       time.Time
	Rows        []Row
	PauseS      float64 // between rows
	IntervalS   float64 // sampling interval; 0 means 1 s
	LeadS       float64
	MemTotalMiB float64 // 0 means 81,559 (an H100 80 GB)
}

// Write writes the log in the machine's local time as UTC (nvidia-smi's
// timestamps carry no zone).
func Write(w io.Writer, cfg Config) error {
	step := cfg.IntervalS
	if step <= 0 {
		step = 1
	}
	total := cfg.MemTotalMiB
	if total == 0 {
		total = 81559
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "timestamp, power.draw [W], memory.used [MiB], memory.total [MiB], utilization.gpu [%], temperature.gpu")
	line := func(at float64, watts, mem, util, temp float64) {
		t := cfg.Start.Add(time.Duration(at * float64(time.Second))).UTC()
		fmt.Fprintf(bw, "%s, %.2f W, %.0f MiB, %.0f MiB, %.0f %%, %.0f\n", t.Format("2006/01/02 15:04:05.000"), watts, mem, total, util, temp)
	}
	// Samples fall half an interval off the rows' edges, so each lands in
	// one row's window only. Within a row the first reading is 1.5 W high
	// and the last 1.5 W low: the mean is the row's watts exactly, the peak
	// 1.5 W above it.
	half := step / 2
	for t := -cfg.LeadS + half; t < 0; t += step {
		line(t, 72, 1024, 0, 38)
	}
	at := 0.0
	for i, r := range cfg.Rows {
		k := int((r.DurationS - half) / step)
		for j := 0; j <= k; j++ {
			w := r.Watts
			switch {
			case j == 0 && k > 0:
				w += 1.5
			case j == k && k > 0:
				w -= 1.5
			}
			line(at+half+float64(j)*step, w, r.MemUsedMiB, r.UtilPct, r.TempC)
		}
		at += r.DurationS
		if i < len(cfg.Rows)-1 {
			for t := at + half; t < at+cfg.PauseS; t += step {
				line(t, 72, 1024, 0, 38)
			}
			at += cfg.PauseS
		}
	}
	for t := at + half; t < at+cfg.LeadS; t += step {
		line(t, 72, 1024, 0, 38)
	}
	return bw.Flush()
}
