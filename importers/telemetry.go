package importers

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"capplan/planner"
)

// ParseTelemetry reads a GPU log and hands every sample to emit, in file
// order. Three formats are recognised from the content:
//
//   - nvidia-smi CSV, as written by
//     nvidia-smi --query-gpu=timestamp,power.draw,memory.used,memory.total,utilization.gpu,temperature.gpu --format=csv -l 1
//     (a header naming the fields with their units, values such as
//     "469.12 W", "61234 MiB", "97 %"; "nounits" logs too). Columns may come
//     in any order; index, uuid or pci.bus_id name the GPU, otherwise the
//     GPUs of one timestamp are numbered in order. nvidia-smi writes local
//     time without a zone: opt.Location says which (UTC by default).
//   - DCGM exporter scrapes in the Prometheus text format, concatenated,
//     each sample line carrying its timestamp in milliseconds
//     (DCGM_FI_DEV_POWER_USAGE, DCGM_FI_DEV_FB_USED / _FREE / _RESERVED,
//     DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_GPU_TEMP; the gpu or UUID label names
//     the GPU).
//   - AIPerf's GPU telemetry export, gpu_telemetry_export.jsonl (one JSON
//     object per GPU per scrape; see aiperf_telemetry.go).
//
// An error from emit stops the import and is returned.
func ParseTelemetry(name string, r io.Reader, opt EvidenceOptions, emit func(planner.GPUSample) error) (f *EvidenceFile, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, &Error{File: name, Msg: fmt.Sprintf("internal error while reading the file: %v", p)}
		}
	}()
	hr := newHashedReader(r, opt.MaxBytes)
	br := bufio.NewReaderSize(hr, 64<<10)
	f = &EvidenceFile{Name: name}
	c, perr := firstByte(br)
	switch {
	case perr == io.EOF:
		return nil, &Error{File: name, Msg: "the file is empty"}
	case perr != nil:
		return nil, wrapErr(name, perr)
	case c == '{':
		f.Format = "aiperf-gpu-telemetry"
		err = parseAIPerfTelemetry(name, br, f, emit)
	case c == '#' || c == 'D':
		f.Format = "dcgm"
		err = parseDCGM(name, br, f, emit)
	default:
		f.Format = "nvidia-smi"
		err = parseSMI(name, br, opt, f, emit)
	}
	if err == nil {
		err = hr.finish(f)
	}
	if err = hr.over(err); err != nil {
		return nil, wrapErr(name, err)
	}
	if f.Records == 0 {
		return nil, &Error{File: name, Msg: "no GPU samples in the file"}
	}
	return f, nil
}

// smiColumn is what one nvidia-smi column holds.
type smiColumn int

const (
	smiOther smiColumn = iota
	smiTime
	smiPower
	smiMemUsed
	smiMemTotal
	smiUtil
	smiTemp
	smiGPU
)

func smiKind(header string) smiColumn {
	h := strings.ToLower(strings.TrimSpace(header))
	if i := strings.Index(h, " ["); i >= 0 {
		h = h[:i]
	}
	switch {
	case h == "timestamp":
		return smiTime
	case h == "power.draw" || h == "power.draw.instant" || h == "power.draw.average":
		return smiPower
	case h == "memory.used":
		return smiMemUsed
	case h == "memory.total":
		return smiMemTotal
	case h == "utilization.gpu":
		return smiUtil
	case h == "temperature.gpu":
		return smiTemp
	case h == "index" || h == "uuid" || h == "gpu_uuid" || h == "pci.bus_id":
		return smiGPU
	}
	return smiOther
}

func parseSMI(name string, br *bufio.Reader, opt EvidenceOptions, f *EvidenceFile, emit func(planner.GPUSample) error) error {
	lr := newLineReader(br)
	header, ok := lr.next()
	if !ok {
		if err := lr.err(); err != nil {
			return err
		}
		return errors.New("the file is empty")
	}
	cells, err := splitRow(header)
	if err != nil {
		return evidenceErr(name, 1, "unreadable header: %v", err)
	}
	cols := make([]smiColumn, len(cells))
	fields := make([]string, len(cells))
	var has [smiGPU + 1]bool
	gpuCol := -1
	for i, c := range cells {
		cols[i] = smiKind(c)
		has[cols[i]] = true
		if cols[i] == smiGPU && gpuCol < 0 {
			gpuCol = i
		}
		if cols[i] != smiOther && cols[i] != smiGPU {
			// index and uuid may both name the GPU; the first is used
			fields[i] = strconv.Itoa(int(cols[i]))
		}
	}
	if err := checkHeader(name, 1, cells, fields); err != nil {
		return err
	}
	gpus := gpuSet{}
	if !has[smiTime] {
		if _, err := parseInstant(cells[0], opt.loc()); err == nil {
			return evidenceErr(name, 1, "the header line is missing (a log written with --format=csv,noheader): write it with --format=csv so the columns are named")
		}
		return evidenceErr(name, 1, "not an nvidia-smi CSV log nor a DCGM scrape: the header has no timestamp column (query it with --query-gpu=timestamp,power.draw,...)")
	}
	if !has[smiPower] && !has[smiMemUsed] {
		return evidenceErr(name, 1, "the log has neither power.draw nor memory.used: nothing to align")
	}
	var lastTS string
	ordinal := 0
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		rec, err := splitRow(line)
		if err != nil {
			return evidenceErr(name, lr.no, "unreadable line: %v", err)
		}
		if len(rec) != len(cols) {
			// nvidia-smi repeats nothing but data; a second header (a
			// restarted logger appending to the file) is skipped.
			if len(rec) > 0 && smiKind(rec[0]) == smiTime {
				continue
			}
			return evidenceErr(name, lr.no, "%d fields where the header names %d", len(rec), len(cols))
		}
		if smiKind(rec[0]) == smiTime && cols[0] == smiTime {
			continue
		}
		var s planner.GPUSample
		for i, c := range cols {
			v := rec[i]
			switch c {
			case smiTime:
				t, err := parseInstant(v, opt.loc())
				if err != nil {
					return evidenceErr(name, lr.no, "timestamp: %v", err)
				}
				s.At = unixSeconds(t)
				if v != lastTS {
					lastTS, ordinal = v, 0
				} else {
					ordinal++
				}
			case smiGPU:
				if i == gpuCol {
					s.GPU = v
				}
			case smiPower, smiMemUsed, smiMemTotal, smiUtil, smiTemp:
				q, ok, err := parseQuantity(v)
				if err != nil {
					return colErr(name, lr.no, i+1, cells[i], "%v", err)
				}
				if !ok {
					continue
				}
				if err := checkReading(c == smiUtil, q.v); err != nil {
					return colErr(name, lr.no, i+1, cells[i], "%q %v", v, err)
				}
				val := q.v
				if (c == smiMemUsed || c == smiMemTotal) && (q.unit == "gib" || strings.Contains(strings.ToLower(cells[i]), "[gib]")) {
					val *= 1024
				}
				switch c {
				case smiPower:
					s.PowerW = planner.F(val)
				case smiMemUsed:
					s.MemUsedMiB = planner.F(val)
				case smiMemTotal:
					s.MemTotalMiB = planner.F(val)
				case smiUtil:
					s.UtilPct = planner.F(val)
				case smiTemp:
					s.TempC = planner.F(val)
				}
			}
		}
		if gpuCol < 0 {
			s.GPU = strconv.Itoa(ordinal)
		}
		if err := gpus.add(s.GPU); err != nil {
			if gpuCol >= 0 {
				return colErr(name, lr.no, gpuCol+1, cells[gpuCol], "%v", err)
			}
			return evidenceErr(name, lr.no, "%v", err)
		}
		if f.Records >= MaxTelemetrySamples {
			return evidenceErr(name, lr.no, "more than %d samples: a log that long is past what one import reads (split it by time)", MaxTelemetrySamples)
		}
		f.Records++
		if err := emit(s); err != nil {
			return err
		}
	}
	return lr.err()
}

// checkReading refuses a negative reading, and a utilisation above 100 %.
func checkReading(util bool, v float64) error {
	switch {
	case v < 0:
		return errors.New("is negative: no GPU reading can be")
	case util && v > 100:
		return errors.New("is above 100 %: a utilisation cannot be")
	}
	return nil
}

// gpuSet holds the GPUs a log names, at most MaxTelemetryGPUs of them.
type gpuSet map[string]struct{}

func (g gpuSet) add(id string) error {
	if _, ok := g[id]; ok {
		return nil
	}
	if err := checkLabel("the GPU", id); err != nil {
		return err
	}
	if len(g) >= MaxTelemetryGPUs {
		return fmt.Errorf("a GPU beyond the first %d the log names (%q): one box has fewer; is this one box's log?", MaxTelemetryGPUs, clipStr(id))
	}
	g[id] = struct{}{}
	return nil
}

// dcgmGPU collects one GPU's fields of one scrape.
type dcgmGPU struct {
	s              planner.GPUSample
	free, reserved *float64
	seen           map[string]int // the line each field came from
}

func parseDCGM(name string, br *bufio.Reader, f *EvidenceFile, emit func(planner.GPUSample) error) error {
	lr := newLineReader(br)
	pending := map[string]*dcgmGPU{}
	var pendingAt float64
	flush := func() error {
		keys := make([]string, 0, len(pending))
		for k := range pending {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			g := pending[k]
			if g.s.MemUsedMiB != nil && g.free != nil {
				total := *g.s.MemUsedMiB + *g.free
				if g.reserved != nil {
					total += *g.reserved
				}
				g.s.MemTotalMiB = planner.F(total)
			}
			f.Records++
			if err := emit(g.s); err != nil {
				return err
			}
		}
		clear(pending)
		return nil
	}
	metrics := 0
	gpus := gpuSet{}
	skipped := map[string]int{} // non-finite readings per metric
	firstSkip := 0
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		metric, labels, rest, err := splitSample(t)
		if err != nil {
			return evidenceErr(name, lr.no, "%v", err)
		}
		field := dcgmField(metric)
		if field == "" {
			continue
		}
		metrics++
		fs := strings.Fields(rest)
		if len(fs) < 2 {
			return evidenceErr(name, lr.no, "%s has no timestamp: DCGM scrapes must be saved with the time of each scrape appended in milliseconds (Prometheus text format), or the samples cannot be aligned with the rows", metric)
		}
		col := len(line) - len(strings.TrimLeft(line, " \t")) + len(t) - len(strings.TrimLeft(rest, " \t")) + 1
		val, err := strconv.ParseFloat(fs[0], 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return colErr(name, lr.no, col, metric, "value %q is not a number", fs[0])
		}
		ms, err := strconv.ParseFloat(fs[1], 64)
		if err != nil || math.IsNaN(ms) || math.IsInf(ms, 0) || ms < 0 {
			return colErr(name, lr.no, col+len(fs[0])+1, metric, "timestamp %q is not a number of milliseconds", fs[1])
		}
		if math.IsNaN(val) || math.IsInf(val, 0) {
			// Prometheus allows NaN and ±Inf: no reading, counted in a warning
			if len(skipped) == 0 {
				firstSkip = lr.no
			}
			skipped[metric]++
			continue
		}
		if err := checkReading(field == "util", val); err != nil {
			return colErr(name, lr.no, col, metric, "%s %v", fs[0], err)
		}
		at := ms / 1000
		if len(pending) > 0 && at != pendingAt {
			if err := flush(); err != nil {
				return err
			}
		}
		pendingAt = at
		gpu := labels["gpu"]
		if gpu == "" {
			gpu = labels["UUID"]
		}
		g := pending[gpu]
		if g == nil {
			if err := gpus.add(gpu); err != nil {
				return evidenceErr(name, lr.no, "%v", err)
			}
			if f.Records+len(pending) >= MaxTelemetrySamples {
				return evidenceErr(name, lr.no, "more than %d samples: a log that long is past what one import reads (split it by time)", MaxTelemetrySamples)
			}
			g = &dcgmGPU{s: planner.GPUSample{At: at, GPU: gpu}}
			pending[gpu] = g
		}
		if g.seen == nil {
			g.seen = map[string]int{}
		}
		if prev, ok := g.seen[field]; ok {
			return colErr(name, lr.no, col, metric, "a second %s for GPU %q in the scrape at %s ms (the first on line %d): which one is the reading cannot be known", metric, clipStr(gpu), fs[1], prev)
		}
		g.seen[field] = lr.no
		v := planner.F(val)
		switch field {
		case "power":
			g.s.PowerW = v
		case "used":
			g.s.MemUsedMiB = v
		case "free":
			g.free = v
		case "reserved":
			g.reserved = v
		case "util":
			g.s.UtilPct = v
		case "temp":
			g.s.TempC = v
		}
	}
	if err := lr.err(); err != nil {
		return err
	}
	if len(skipped) > 0 {
		keys := make([]string, 0, len(skipped))
		n := 0
		for k, v := range skipped {
			keys = append(keys, fmt.Sprintf("%s %d", k, v))
			n += v
		}
		sort.Strings(keys)
		f.Warnings = append(f.Warnings, fmt.Sprintf("%d readings were NaN or infinite and were skipped, the first on line %d (%s)", n, firstSkip, strings.Join(keys, ", ")))
	}
	if metrics == 0 {
		return evidenceErr(name, 0, "not a DCGM exporter scrape: no DCGM_FI_DEV_POWER_USAGE, DCGM_FI_DEV_FB_USED, DCGM_FI_DEV_GPU_UTIL or DCGM_FI_DEV_GPU_TEMP lines")
	}
	return flush()
}

func dcgmField(metric string) string {
	switch metric {
	case "DCGM_FI_DEV_POWER_USAGE":
		return "power"
	case "DCGM_FI_DEV_FB_USED":
		return "used"
	case "DCGM_FI_DEV_FB_FREE":
		return "free"
	case "DCGM_FI_DEV_FB_RESERVED":
		return "reserved"
	case "DCGM_FI_DEV_GPU_UTIL":
		return "util"
	case "DCGM_FI_DEV_GPU_TEMP":
		return "temp"
	}
	return ""
}

// splitSample splits a Prometheus text-format sample line into the metric
// name, its labels and what follows ("value [timestamp]").
func splitSample(line string) (metric string, labels map[string]string, rest string, err error) {
	labels = map[string]string{}
	i := strings.IndexAny(line, "{ \t")
	if i < 0 {
		return "", nil, "", fmt.Errorf("%q is not a metric sample", clipStr(line))
	}
	metric = line[:i]
	if line[i] != '{' {
		return metric, labels, line[i:], nil
	}
	j := i + 1
	for {
		for j < len(line) && (line[j] == ' ' || line[j] == ',') {
			j++
		}
		if j >= len(line) {
			return "", nil, "", fmt.Errorf("%s: unterminated labels", metric)
		}
		if line[j] == '}' {
			return metric, labels, line[j+1:], nil
		}
		eq := strings.IndexByte(line[j:], '=')
		if eq < 0 || j+eq+1 >= len(line) || line[j+eq+1] != '"' {
			return "", nil, "", fmt.Errorf("%s: malformed label", metric)
		}
		key := strings.TrimSpace(line[j : j+eq])
		k := j + eq + 2
		var b strings.Builder
		for k < len(line) && line[k] != '"' {
			if line[k] == '\\' && k+1 < len(line) {
				k++
			}
			b.WriteByte(line[k])
			k++
		}
		if k >= len(line) {
			return "", nil, "", fmt.Errorf("%s: unterminated label value", metric)
		}
		labels[key] = b.String()
		j = k + 1
	}
}

func clipStr(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
