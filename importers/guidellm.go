package importers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"

	"capplan/planner"
)

// gReport is what the streaming pass collects from a GuideLLM report before
// the rows are built (the family is only known once the whole top level has
// been seen: YAML sorts metadata after benchmarks).
type gReport struct {
	meta    *gMetadata
	args    *gRunArgs
	hasArgs bool
	config  *gRunConfig
	// conclusions are the report's top-level conclusions (GuideLLM's knee
	// profile writes its KneeDetectionConclusion there)
	conclusions []*gKneeConclusion
	benches     []*gBench
	keys        []string          // the top-level keys, in file order
	dups        []string          // duplicate-key notes, in file order
	short       map[string]string // metadata, args and config, shortened for those notes
	yaml        bool              // converted from YAML, which has no end of its own
}

// dup notes a key that appears twice.
func (rep *gReport) dup(msg string) { rep.dups = append(rep.dups, msg) }

// dupNote describes a key that appears twice and what is kept of it.
func dupNote(path, old, last string) string {
	return fmt.Sprintf("%s appears twice (%s, then %s); the last value is used, as Python's json module reads it", path, old, last)
}

// gBench is what one benchmarks[i] holds.
type gBench struct {
	path          string
	keys          []string // its keys, in file order
	args          *gBenchArgs
	config        *gBenchConfig
	workerModel   string
	metrics       *gMetrics
	totals        *gCounts // family B: b.request_totals
	sched         *gSchedMetrics
	schedKey      string
	start, end    num
	duration      num
	listed        int // successful records listed in requests
	listedAll     int // records of every status
	minStart      float64
	hasStart      bool
	prompts       int
	firstPrompt   uint64
	promptsDiffer bool
	inner         []*aBench        // family A
	server        []gServerMetrics // server_metrics: what GuideLLM scraped from the engine
	bodyModel     string           // the model named in the first request body that names one
	bodyHead      []byte           // buffer for the start of a request body
	samples       []planner.Sample
	sampleStart   []float64 // each sample's start (epoch s), NaN when unknown
	zeroTok       int       // successful records without output tokens
	okTTFT, okE2E []float64 // TTFT (ms) and end-to-end (s) of the successful records with tokens
	warmup        num       // warmup_duration (C-E), s
	cooldown      num       // cooldown_duration (C-E), s
	listsIgnored  bool      // a request list appears twice: the lists are not used
}

// parseGuideLLM reads a GuideLLM JSON report as a stream.
func parseGuideLLM(w *lexer) (*File, error) {
	rep := &gReport{}
	if err := w.object("", func(k string) error { return rep.key(w, k) }); err != nil {
		return nil, err
	}
	return rep.finishFrom(w)
}

// parseGuideLLMYAML reads a GuideLLM report converted from YAML. A JSON
// document ends where its brackets close, so a cut one is refused by the
// lexer; a YAML document cut at a line's end is still valid YAML, so the
// report is held to the structure GuideLLM writes (yamlComplete).
func parseGuideLLMYAML(w *lexer) (*File, error) {
	rep := &gReport{yaml: true}
	if err := w.object("", func(k string) error { return rep.key(w, k) }); err != nil {
		return nil, err
	}
	return rep.finishFrom(w)
}

// gBenchKeys are the keys GuideLLM writes for every benchmark, by report
// generation (families B to E; its YAML lists them sorted).
var gBenchKeys = map[string][]string{
	"B": {"args", "duration", "end_time", "metrics", "request_totals", "requests", "run_stats", "start_time", "type_", "worker"},
	"C": {"config", "cooldown_duration", "duration", "end_time", "metrics", "requests", "scheduler_metrics", "scheduler_state", "start_time", "type_", "warmup_duration"},
}

func init() { gBenchKeys["D"], gBenchKeys["E"] = gBenchKeys["C"], gBenchKeys["C"] }

// yamlCut is the refusal of a YAML report that ends before its structure
// does.
func yamlCut(where, why string) error {
	return fmt.Errorf("the file is cut off (truncated) inside %s: %s: export it again", where, why)
}

// yamlMetadataComplete refuses a YAML report whose metadata ends before its
// version (GuideLLM writes metadata last and sorted, version last in it):
// without it the report would be read as another generation.
func (rep *gReport) yamlMetadataComplete() error {
	if !rep.yaml {
		return nil
	}
	if slices.Contains(rep.keys, "metadata") && (rep.meta == nil || !rep.meta.Version.set) {
		return yamlCut("metadata", "it ends before metadata.version, which every GuideLLM report with metadata has")
	}
	if slices.Contains(rep.keys, "config") && !slices.Contains(rep.keys, "metadata") {
		return yamlCut("the report", "a report with a top-level config is GuideLLM 0.7 or later, which writes metadata after it, and this one ends before metadata")
	}
	return nil
}

// gExpectedLevels is how many benchmarks a run's profile and rate ask for
// (args in GuideLLM 0.4-0.6, config.spec.profile in 0.7+), false when the
// profile does not say.
func gExpectedLevels(profile string, rate json.RawMessage) (int, bool) {
	var list []float64
	var one float64
	isList := json.Unmarshal(rate, &list) == nil
	isOne := !isList && json.Unmarshal(rate, &one) == nil
	switch profile {
	case "synchronous", "throughput":
		return 1, true
	case "concurrent", "constant", "poisson", "async":
		switch {
		case isList && len(list) > 0:
			return len(list), true
		case isOne:
			return 1, true
		}
	case "sweep":
		if isList && len(list) == 1 {
			one, isOne = list[0], true
		}
		if isOne && one >= 1 && one <= maxRows && one == math.Trunc(one) {
			return int(one), true
		}
	}
	return 0, false
}

// yamlLevelsComplete refuses a YAML report that holds fewer benchmarks
// than its profile asks for: a list that ends at a benchmark's end is
// still valid YAML. A report from GuideLLM 0.4 or later names its run
// (args, or config in 0.7+); one that names neither ends before it.
func (rep *gReport) yamlLevelsComplete(fam string) error {
	if !rep.yaml || fam == "A" || fam == "B" {
		return nil
	}
	var profile string
	var rate json.RawMessage
	switch {
	case rep.args != nil:
		profile, rate = string(rep.args.Profile), rep.args.Rate
	case rep.config != nil && rep.config.Spec != nil && rep.config.Spec.Profile != nil:
		profile, rate = string(rep.config.Spec.Profile.Kind), rep.config.Spec.Profile.Rate
	case !slices.Contains(rep.keys, "args") && !slices.Contains(rep.keys, "config"):
		return yamlCut("the report", "it ends after benchmarks without the run's args (GuideLLM 0.4-0.6) or config (0.7+), which GuideLLM writes in every report")
	}
	if n, ok := gExpectedLevels(profile, rate); ok && len(rep.benches) < n {
		return yamlCut("benchmarks", fmt.Sprintf("the run's profile (%s, rate %s) asks for %d load levels and the file holds %d", profile, clip(rate), n, len(rep.benches)))
	}
	return nil
}

// yamlBenchesComplete refuses a YAML report whose benchmarks lack a key
// their generation writes for every benchmark, or one another benchmark of
// the file has: the file ends inside the last of them.
func (rep *gReport) yamlBenchesComplete(fam string) error {
	if !rep.yaml || fam == "A" {
		return nil
	}
	want := slices.Clone(gBenchKeys[fam])
	for _, b := range rep.benches {
		for _, k := range b.keys {
			if !slices.Contains(want, k) {
				want = append(want, k)
			}
		}
	}
	for _, b := range rep.benches {
		var lack []string
		for _, k := range want {
			if !slices.Contains(b.keys, k) {
				lack = append(lack, k)
			}
		}
		if len(lack) > 0 {
			if len(lack) > 6 {
				lack = append(lack[:6], "...")
			}
			return yamlCut(b.path, "it lacks "+strings.Join(lack, ", ")+", which GuideLLM writes for every benchmark")
		}
	}
	return nil
}

// key reads the value of one top-level key of the report.
func (rep *gReport) key(w *lexer, k string) error {
	again := slices.Contains(rep.keys, k)
	rep.keys = append(rep.keys, k)
	switch k {
	case "metadata", "args", "config":
		raw, err := w.capture(k)
		if err != nil {
			return err
		}
		if rep.short == nil {
			rep.short = map[string]string{}
		}
		if old, ok := rep.short[k]; ok {
			rep.dup(dupNote(k, old, clip(raw)))
		}
		rep.short[k] = clip(raw)
		return rep.decodeKey(k, raw)
	case "conclusions":
		// what a profile concluded once its run ended (GuideLLM's knee
		// profile: its knee analysis), one entry per profile
		rep.conclusions = nil
		return w.decode(k, &rep.conclusions)
	case "benchmarks":
		if again {
			rep.dup("benchmarks appears twice; the last list is used, as Python's json module reads it")
			rep.benches = nil
		}
		return w.array("benchmarks", func(i int) error {
			if i >= maxRows {
				return fmt.Errorf("benchmarks: more than %d load levels in one file: not a load-test result", maxRows)
			}
			b, err := readGBench(w, fmt.Sprintf("benchmarks[%d]", i), rep.dup)
			rep.benches = append(rep.benches, b)
			return err
		})
	}
	return w.skip(k)
}

// decodeKey decodes the raw value of metadata, args or config.
func (rep *gReport) decodeKey(k string, raw []byte) error {
	var v any
	switch k {
	case "metadata":
		rep.meta = &gMetadata{}
		v = rep.meta
	case "args":
		rep.args, rep.hasArgs = &gRunArgs{}, true
		v = rep.args
	case "config":
		rep.config = &gRunConfig{}
		v = rep.config
	}
	if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
		raw = sanitizeAll(raw)
	}
	raw = lastWins(raw, k, rep.dup)
	if err := json.Unmarshal(raw, v); err != nil {
		return tokenErr(k, err)
	}
	return nil
}

// lastWins returns raw (a small captured value) with, in each object, only
// the last value of a key that appears twice, as Python's json module
// keeps it; encoding/json alone would merge two objects given under one
// key. Each such key is reported with both values.
func lastWins(raw []byte, path string, report func(string)) []byte {
	if bytes.IndexByte(raw, '{') < 0 {
		return raw
	}
	dup := false
	dupScan(raw, path, func(msg string) { dup = true; report(msg) })
	if !dup {
		return raw
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return raw // the decoding that follows reports the error
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// finishFrom checks the end of the document and builds the rows.
func (rep *gReport) finishFrom(w *lexer) (*File, error) {
	if err := w.finish(); err != nil {
		return nil, err
	}
	if !slices.Contains(rep.keys, "benchmarks") {
		keys := rep.keys
		if len(keys) > 8 {
			keys = append(keys[:8], "...")
		}
		return nil, fmt.Errorf("not a recognised benchmark result: no top-level benchmarks list (keys: %s)", strings.Join(keys, ", "))
	}
	return rep.build()
}

// readGBench reads one element of benchmarks[], streaming its request
// lists; keys that appear twice are reported to dup.
func readGBench(w *lexer, p string, dup func(string)) (*gBench, error) {
	b := &gBench{path: p, minStart: math.Inf(1)}
	seen := map[string]string{} // key -> its value, shortened
	decode := func(kp, k string, v any) error {
		raw, err := w.capture(kp)
		if err != nil {
			return err
		}
		if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
			raw = sanitizeAll(raw)
		}
		short := clip(raw)
		if old, ok := seen[k]; ok {
			dup(dupNote(kp, old, short))
		}
		seen[k] = short
		raw = lastWins(raw, kp, dup)
		if err := json.Unmarshal(raw, v); err != nil {
			return tokenErr(kp, err)
		}
		return nil
	}
	err := w.object(p, func(k string) error {
		w.recognized = true
		b.keys = append(b.keys, k)
		kp := p + "." + k
		switch k {
		case "args":
			b.args = &gBenchArgs{}
			return decode(kp, k, b.args)
		case "config":
			b.config = &gBenchConfig{}
			return decode(kp, k, b.config)
		case "worker":
			var wk struct {
				BackendModel lstr `json:"backend_model"`
			}
			err := decode(kp, k, &wk)
			b.workerModel = string(wk.BackendModel)
			return err
		case "metrics":
			b.metrics = &gMetrics{}
			return decode(kp, k, b.metrics)
		case "server_metrics":
			b.server = nil
			return decode(kp, k, &b.server)
		case "request_totals":
			b.totals = &gCounts{}
			return decode(kp, k, b.totals)
		case "run_stats", "scheduler_metrics":
			b.sched, b.schedKey = &gSchedMetrics{}, k
			return decode(kp, k, b.sched)
		case "start_time":
			b.start = num{}
			return decode(kp, k, &b.start)
		case "end_time":
			b.end = num{}
			return decode(kp, k, &b.end)
		case "duration":
			b.duration = num{}
			return decode(kp, k, &b.duration)
		case "warmup_duration":
			b.warmup = num{}
			return decode(kp, k, &b.warmup)
		case "cooldown_duration":
			b.cooldown = num{}
			return decode(kp, k, &b.cooldown)
		case "requests":
			if _, again := seen[k]; again {
				dup(kp + " appears twice; the last lists are used, as Python's json module reads them")
				b.resetRequests()
				b.listsIgnored = false
			}
			seen[k] = "{...}"
			return b.readRequests(w, kp, dup)
		case "benchmarks": // family A: a report nested in the list
			return w.array(kp, func(i int) error {
				a, err := readABench(w, fmt.Sprintf("%s[%d]", kp, i))
				b.inner = append(b.inner, a)
				return err
			})
		}
		return w.skip(kp)
	})
	return b, err
}

// resetRequests forgets what the request lists held.
func (b *gBench) resetRequests() {
	b.listed, b.listedAll, b.minStart, b.hasStart = 0, 0, math.Inf(1), false
	b.prompts, b.firstPrompt, b.promptsDiffer = 0, 0, false
	b.samples, b.sampleStart, b.zeroTok, b.okTTFT, b.okE2E = nil, nil, 0, nil, nil
}

// gRecord is the part of one per-request record the reader keeps; one is
// reused for every record of a list.
type gRecord struct {
	start, ttft, lat, itl, out num
	prompt                     uint64
	hasPrompt, fromArgs        bool
}

// gRecordPaths are the paths of the fields of the records of one list,
// built once per list rather than once per value.
type gRecordPaths struct {
	list, args, start, reqStart, ttft, lat, itl, out, info, timings, reqStartInfo string
}

func newGRecordPaths(sp string) *gRecordPaths {
	return &gRecordPaths{
		list: sp, args: sp + ".request_args", start: sp + ".start_time", reqStart: sp + ".request_start_time",
		ttft: sp + ".time_to_first_token_ms", lat: sp + ".request_latency", itl: sp + ".inter_token_latency_ms",
		out: sp + ".output_tokens", info: sp + ".info", timings: sp + ".info.timings", reqStartInfo: sp + ".info.timings.request_start",
	}
}

// readRequests streams benchmarks[i].requests.{successful,errored,incomplete}
// one record at a time, keeping a hash of the prompt, the start time, the
// model named in the request body, and one planner.Sample per request.
func (b *gBench) readRequests(w *lexer, p string, dup func(string)) error {
	var h maphash.Hash
	h.SetSeed(promptSeed)
	var rec gRecord
	var ps *gRecordPaths
	// prompt hashes a prompt (B) or a request body (C-E), and reads the
	// model from the first request body that names one. Once two prompts
	// differ, the prompts are only counted, not hashed.
	prompt := func(k string) error {
		c, err := w.peek(ps.list)
		if err != nil {
			return err
		}
		if k == "prompt" && rec.fromArgs {
			return w.skip(ps.list)
		}
		hashing := !b.promptsDiffer
		switch c {
		case '"':
			wantModel := k == "request_args" && b.bodyModel == ""
			if !hashing && !wantModel {
				if err := w.skipString(ps.list, nil); err != nil {
					return err
				}
				break
			}
			h.Reset()
			head := b.bodyHead[:0]
			if err := w.skipString(ps.list, func(seg []byte) {
				if hashing {
					h.Write(seg)
				}
				if wantModel && len(head) < 4096 {
					head = append(head, seg...)
				}
			}); err != nil {
				return err
			}
			if wantModel {
				b.bodyHead = head
				b.bodyModel = modelInEscaped(head)
			}
		case '{':
			if k != "request_args" {
				return w.skip(ps.list)
			}
			if !hashing && b.bodyModel != "" {
				if err := w.skip(ps.args); err != nil {
					return err
				}
				break
			}
			raw, over, err := w.captureOrSkip(ps.args)
			if err != nil || over {
				return err
			}
			h.Reset()
			h.Write(raw)
			if b.bodyModel == "" {
				var body struct {
					Model lstr `json:"model"`
				}
				if json.Unmarshal(raw, &body) == nil {
					b.bodyModel = string(body.Model)
				}
			}
		default:
			return w.skip(ps.list)
		}
		rec.prompt, rec.hasPrompt, rec.fromArgs = h.Sum64(), true, k == "request_args"
		return nil
	}
	timing := func(k string) error {
		if k != "request_start" {
			return w.skip(ps.list)
		}
		n, err := w.num(ps.reqStartInfo)
		if err == nil && n.set {
			rec.start = n
		}
		return err
	}
	info := func(k string) error {
		if k != "timings" {
			return w.skip(ps.list)
		}
		return w.object(ps.timings, timing)
	}
	field := func(k string) error {
		var err error
		switch k {
		case "request_args", "prompt":
			return prompt(k)
		case "start_time", "request_start_time":
			pk := ps.start
			if k == "request_start_time" {
				pk = ps.reqStart
			}
			n, err := w.num(pk)
			if err == nil && !rec.start.set {
				rec.start = n
			}
			return err
		case "time_to_first_token_ms":
			rec.ttft, err = w.num(ps.ttft)
			return err
		case "request_latency":
			rec.lat, err = w.num(ps.lat)
			return err
		case "inter_token_latency_ms":
			rec.itl, err = w.num(ps.itl)
			return err
		case "output_tokens":
			rec.out, err = w.num(ps.out)
			return err
		case "info":
			return w.object(ps.info, info)
		}
		return w.skip(ps.list)
	}
	var status string
	record := func(int) error {
		rec = gRecord{}
		if err := w.object(ps.list, field); err != nil {
			return err
		}
		if !b.listsIgnored {
			b.addRecord(&rec, status == "successful")
		}
		return nil
	}
	var lists []string
	return w.object(p, func(st string) error {
		sp := p + "." + st
		if st != "successful" && st != "errored" && st != "incomplete" {
			return w.skip(sp)
		}
		if slices.Contains(lists, st) && !b.listsIgnored {
			// the records of one status cannot be taken back from the
			// counts and samples of all: none is used
			dup(sp + " appears twice: the per-request lists of this benchmark are not used (no samples, no recount, no check of warmup or prompts)")
			b.resetRequests()
			b.listsIgnored = true
		}
		lists = append(lists, st)
		status, ps = st, newGRecordPaths(sp)
		return w.array(sp, record)
	})
}

// addRecord counts one per-request record and keeps its sample.
func (b *gBench) addRecord(rec *gRecord, ok bool) {
	b.listedAll++
	if ok {
		b.listed++
		if rec.out.set && rec.out.v == 0 {
			ok = false
			b.zeroTok++
		}
	}
	if ok && len(b.okTTFT) < maxPerRequest {
		if rec.ttft.set && !math.IsNaN(rec.ttft.v) {
			b.okTTFT = append(b.okTTFT, rec.ttft.v)
		}
		if rec.lat.set && !math.IsNaN(rec.lat.v) {
			b.okE2E = append(b.okE2E, rec.lat.v)
		}
	}
	if len(b.samples) < maxPerRequest {
		b.samples = append(b.samples, planner.Sample{
			TTFT: sampleFig(rec.ttft, 1e-3), E2E: sampleFig(rec.lat, 1), ITL: sampleFig(rec.itl, 1e-3),
			OutputTokens: sampleTokens(rec.out), OK: ok,
		})
		st := math.NaN()
		if rec.start.set {
			st = rec.start.v
		}
		b.sampleStart = append(b.sampleStart, st)
	}
	if rec.start.set && rec.start.v > 0 && rec.start.v < b.minStart {
		b.minStart, b.hasStart = rec.start.v, true
	}
	if rec.hasPrompt {
		if b.prompts == 0 {
			b.firstPrompt = rec.prompt
		} else if rec.prompt != b.firstPrompt {
			b.promptsDiffer = true
		}
		b.prompts++
	}
}

// sampleFig converts a per-request figure to seconds for a Sample:
// planner.NoFigure when absent, negative or not finite.
func sampleFig(n num, scale float64) float32 {
	if !n.set || n.v < 0 || math.IsNaN(n.v) || math.IsInf(n.v, 0) || n.v > maxFigure {
		return planner.NoFigure
	}
	return float32(n.v * scale)
}

// sampleTokens is a per-request token count, -1 when unknown.
func sampleTokens(n num) int32 {
	if !n.set || n.v < 0 || n.v > math.MaxInt32 || math.IsNaN(n.v) {
		return -1
	}
	return int32(n.v)
}

// modelInEscaped finds "model": "NAME" in the start of a request body
// written as a JSON string (escapes not decoded: \"model\": \"NAME\").
func modelInEscaped(raw []byte) string {
	key := []byte(`\"model\"`)
	i := bytes.Index(raw, key)
	if i < 0 {
		return ""
	}
	rest := bytes.TrimLeft(raw[i+len(key):], " ")
	if len(rest) == 0 || rest[0] != ':' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " ")
	if !bytes.HasPrefix(rest, []byte(`\"`)) {
		return ""
	}
	rest = rest[2:]
	end := bytes.Index(rest, []byte(`\"`))
	if end <= 0 || end > 256 {
		return ""
	}
	return string(rest[:end])
}

// promptSeed makes prompt hashes comparable within one process.
var promptSeed = maphash.MakeSeed()

// family returns the report generation and its label.
func (rep *gReport) family() (string, error) {
	if rep.meta != nil && rep.meta.Version.set {
		switch rep.meta.Version.v {
		case 1:
			return "D", nil
		case 2:
			return "E", nil
		}
		return "", fmt.Errorf("metadata.version: GuideLLM report version %g is not supported (known: 1 for GuideLLM 0.5-0.6, 2 for 0.7+)", rep.meta.Version.v)
	}
	if len(rep.benches) == 0 {
		return "", fmt.Errorf("benchmarks: the report holds no benchmarks (zero load levels)")
	}
	b := rep.benches[0]
	switch {
	case b.inner != nil:
		return "A", nil
	case b.config != nil || (rep.hasArgs && b.metrics != nil && b.metrics.RequestTotals != nil):
		return "C", nil
	case b.args != nil && b.args.Strategy != nil || b.totals != nil:
		return "B", nil
	}
	return "", fmt.Errorf("benchmarks[0]: not a GuideLLM benchmark (no config, args.strategy or request_totals)")
}

var gFamilyLabel = map[string]string{
	"A": "A (0.1)", "C": "C (0.4)", "D": "D (0.5-0.6)", "E": "E (0.7+)",
}

// build turns the collected report into rows.
func (rep *gReport) build() (*File, error) {
	if err := rep.yamlMetadataComplete(); err != nil {
		return nil, err
	}
	fam, err := rep.family()
	if err != nil {
		return nil, err
	}
	if err := rep.yamlBenchesComplete(fam); err != nil {
		return nil, err
	}
	if err := rep.yamlLevelsComplete(fam); err != nil {
		return nil, err
	}
	if len(rep.benches) == 0 {
		return nil, fmt.Errorf("benchmarks: the report holds no benchmarks (zero load levels)")
	}
	f := &File{Source: planner.Source{Format: "guidellm", FormatVersion: gFamilyLabel[fam]}}
	f.Warnings = dupWarnings(rep.dups)
	if rep.meta != nil {
		f.Source.ToolVersion = string(rep.meta.GuidellmVersion)
	}
	switch {
	case rep.config != nil && rep.config.Spec != nil && rep.config.Spec.Backend != nil:
		f.Model = string(rep.config.Spec.Backend.Model)
	case rep.args != nil && rep.args.Model != "":
		f.Model = string(rep.args.Model)
	case rep.args != nil && rep.args.BackendKwargs != nil:
		f.Model = string(rep.args.BackendKwargs.Model)
	}
	if fam == "A" {
		return rep.buildA(f)
	}
	if fam == "B" {
		f.Source.FormatVersion = "B (0.2)"
		if m := rep.benches[0].metrics; m != nil && m.TimeToFirstToken != nil && m.TimeToFirstToken.Successful != nil && m.TimeToFirstToken.Successful.Percentiles.P50.set {
			f.Source.FormatVersion = "B (0.3)"
		}
	}
	for _, b := range rep.benches {
		row, err := b.row(fam)
		if err != nil {
			return nil, err
		}
		if f.Model == "" {
			f.Model = row.Model
		}
		f.Rows = append(f.Rows, row)
	}
	rep.markKnee(f)
	for _, b := range rep.benches {
		if f.Model == "" && b.bodyModel != "" {
			f.Model = b.bodyModel
			f.Warnings = append(f.Warnings, planner.Warning{Code: "model-from-requests", Message: "the report names the model only in the request bodies (" + b.path + ".requests[*].request_args.model): " + b.bodyModel})
		}
	}
	if f.Model == "" {
		f.Warnings = append(f.Warnings, planner.Warning{Code: "model-unknown", Message: "the report does not name the model (GuideLLM was run without --model); enter it by hand"})
	}
	return f, nil
}

// row builds the row of one benchmark of families B-E.
func (b *gBench) row(fam string) (planner.Row, error) {
	bd := newBuilder()
	r := bd.row
	p := b.path
	var strat *gStrategy
	var stratPath string
	if fam == "B" {
		if b.args != nil {
			strat, stratPath = b.args.Strategy, p+".args.strategy"
		}
		r.Model = b.workerModel
	} else if b.config != nil {
		strat, stratPath = b.config.Strategy, p+".config.strategy"
		if b.config.Backend != nil {
			r.Model = string(b.config.Backend.Model)
		}
	}
	if strat == nil {
		return planner.Row{}, fmt.Errorf("%s: no strategy: cannot tell the load level", p)
	}
	if err := setGLoad(bd, strat, stratPath); err != nil {
		return planner.Row{}, err
	}
	m := b.metrics
	if m == nil {
		return planner.Row{}, fmt.Errorf("%s.metrics: missing", p)
	}
	mp := p + ".metrics"
	totals, tp := b.totals, p+".request_totals"
	if fam != "B" {
		totals, tp = m.RequestTotals, mp+".request_totals"
	}
	if totals == nil {
		return planner.Row{}, fmt.Errorf("%s: missing request counts", tp)
	}
	bd.count(&r.Successful, "successful", tp+".successful", totals.Successful)
	bd.count(&r.Errored, "errored", tp+".errored", totals.Errored)
	bd.count(&r.Incomplete, "incomplete", tp+".incomplete", totals.Incomplete)
	bd.count(&r.Attempted, "attempted", tp+".total", totals.Total)
	if r.Attempted == nil && r.Successful != nil && r.Errored != nil && r.Incomplete != nil {
		bd.countInt(&r.Attempted, "attempted", tp+".successful+errored+incomplete", *r.Successful+*r.Errored+*r.Incomplete)
	}
	if bd.err != nil {
		return planner.Row{}, bd.err // a count given but not usable is named, not "missing"
	}
	if r.Successful == nil {
		return planner.Row{}, fmt.Errorf("%s.successful: missing", tp)
	}
	bd.fig(&r.DurationS, "duration_s", p+".duration", b.duration, 1)
	// The measured window's start, for aligning a GPU log to the rows; a
	// clock reading, so not held to maxFigure.
	if st := b.start; st.set && st.v > 0 && !math.IsInf(st.v, 0) && !math.IsNaN(st.v) {
		v := st.v
		r.StartedAt = &v
		r.Paths["started_at"] = p + ".start_time"
	}
	mean := func(dst **float64, name string, sd *gStatusDist, key, status string) {
		if sd == nil {
			return
		}
		d := map[string]*gDist{"successful": sd.Successful, "total": sd.Total}[status]
		if d != nil {
			bd.fig(dst, name, mp+"."+key+"."+status+".mean", d.Mean, 1)
		}
	}
	mean(&r.RequestRate, "request_rate", m.RequestsPerSecond, "requests_per_second", "successful")
	mean(&r.SendRate, "send_rate", m.RequestsPerSecond, "requests_per_second", "total")
	mean(&r.AchievedConcurrency, "achieved_concurrency", m.RequestConcurrency, "request_concurrency", "total")
	mean(&r.OutputTokenRate, "output_token_rate", m.OutputTokensPerSecond, "output_tokens_per_second", "successful")
	if *r.Successful > 0 {
		mean(&r.PromptTokensMean, "prompt_tokens_mean", m.PromptTokenCount, "prompt_token_count", "successful")
		mean(&r.OutputTokensMean, "output_tokens_mean", m.OutputTokenCount, "output_token_count", "successful")
		gStat(bd, &r.TTFT, "ttft_s", m.TimeToFirstToken, mp+".time_to_first_token_ms", 1e-3)
		gStat(bd, &r.TTFOT, "ttfot_s", m.TimeToFirstOutput, mp+".time_to_first_output_token_ms", 1e-3)
		gStat(bd, &r.E2E, "e2e_s", m.RequestLatency, mp+".request_latency", 1)
		gStat(bd, &r.ITL, "itl_s", m.InterTokenLatency, mp+".inter_token_latency_ms", 1e-3)
		gStat(bd, &r.TPOT, "tpot_s", m.TimePerOutputToken, mp+".time_per_output_token_ms", 1e-3)
		r.ITL.Definition = "GuideLLM ITL: each request's average gap (last token - first token)/(output tokens - 1), distribution weighted by output tokens - 1"
		if fam == "B" {
			r.TPOT.Definition = "GuideLLM 0.2-0.3 TPOT: (last token - first token)/output tokens, weighted by output tokens"
		} else {
			r.TPOT.Definition = "GuideLLM 0.4+ TPOT: (last token - request start)/output tokens, includes TTFT, weighted by output tokens"
		}
	}
	b.requestWarnings(bd, fam)
	b.keepSamples(bd, fam)
	if err := b.engineFigures(bd); err != nil {
		return planner.Row{}, err
	}
	for _, d := range []struct {
		name string
		n    num
	}{{"warmup_duration", b.warmup}, {"cooldown_duration", b.cooldown}} {
		if d.n.set && d.n.v < 0 {
			bd.warn("negative-duration", "%s.%s is negative (%s s): the tool's clock or window is inconsistent; the measured window and its rates may be off", p, d.name, fmtRate(d.n.v))
		}
	}
	return bd.finish()
}

// setGLoad fills the load kind and level from a strategy.
func setGLoad(bd *builder, s *gStrategy, sp string) error {
	r := bd.row
	switch t := strings.ToLower(string(s.Type)); t {
	case "synchronous":
		r.LoadKind = planner.LoadSynchronous
		bd.setF(&r.Load, "load", sp+".type_", 1)
	case "concurrent":
		r.LoadKind = planner.LoadConcurrency
		bd.fig(&r.Load, "load", sp+".streams", s.Streams, 1)
	case "constant", "poisson", "async":
		r.LoadKind = planner.LoadRate
		bd.fig(&r.Load, "load", sp+".rate", s.Rate, 1)
	case "throughput":
		r.LoadKind = planner.LoadThroughput
		r.Paths["load"] = sp + ".type_"
	case "trace":
		r.LoadKind = planner.LoadRate
		bd.warn("load-unknown", "trace replay: the requests follow a recorded schedule, there is no single load level")
	default:
		return fmt.Errorf("%s.type_: unknown strategy %q", sp, t)
	}
	return nil
}

// gStat fills a latency summary from the successful group of a distribution.
func gStat(bd *builder, s *planner.Stat, key string, sd *gStatusDist, p string, scale float64) {
	if sd == nil || sd.Successful == nil {
		return
	}
	d := sd.Successful
	p += ".successful"
	src := statSrc{mean: d.Mean, meanP: p + ".mean", p95: d.Percentiles.P95, p95P: p + ".percentiles.p95", p99: d.Percentiles.P99, p99P: p + ".percentiles.p99"}
	if d.Percentiles.P50.set {
		src.p50, src.p50P = d.Percentiles.P50, p+".percentiles.p50"
	} else {
		src.p50, src.p50P = d.Median, p+".median"
	}
	bd.stat(s, key, src, scale)
	if d.Count.set && d.Count.v >= 0 && d.Count.v < maxFigure {
		s.N = int(d.Count.v)
	}
}

// requestWarnings adds what the per-request lists reveal: warmup or cooldown
// requests listed beside the measured ones, and identical prompts.
func (b *gBench) requestWarnings(bd *builder, fam string) {
	r := bd.row
	if r.Successful != nil && b.listed > *r.Successful {
		bd.warn("warmup-included", "%s.requests lists %d successful requests but only %d were counted in the measured window: the lists include warmup or cooldown requests", b.path, b.listed, *r.Successful)
	} else if fam != "B" && b.hasStart && b.start.set && b.minStart < b.start.v-0.001 {
		bd.warn("warmup-included", "%s.requests lists requests that started before the measured window (%.3f s early): warmup requests are included in the lists", b.path, b.start.v-b.minStart)
	}
	if b.prompts >= 2 {
		r.IdenticalPrompts = boolp(!b.promptsDiffer)
		r.Paths["identical_prompts"] = b.path + ".requests[*]." + map[bool]string{true: "prompt", false: "request_args"}[fam == "B"]
	}
}

// keepSamples puts the per-request samples of the measured window on the
// row and applies "no tokens received" to successful records without
// output tokens: when the lists hold every successful request, they move
// to errored and TTFT and end-to-end are recomputed (nearest rank, as
// GuideLLM computes) from the requests that received tokens; when the
// lists are sampled, the row is warned.
func (b *gBench) keepSamples(bd *builder, fam string) {
	r := bd.row
	inWindow := func(i int) bool {
		st := b.sampleStart[i]
		if fam == "B" || math.IsNaN(st) {
			return true
		}
		return !(b.start.set && st < b.start.v-0.001) && !(b.end.set && st > b.end.v+0.001)
	}
	for i, s := range b.samples {
		if inWindow(i) {
			r.Samples = append(r.Samples, s)
		}
	}
	if b.zeroTok == 0 || r.Successful == nil {
		return
	}
	ok := *r.Successful
	if b.listed != ok {
		bd.warn("no-tokens", "%d of the %d successful requests listed in %s.requests received no output tokens (no tokens received); the lists are sampled or hold warmup, so the file's counts and figures, which include them as successes, are kept", b.zeroTok, b.listed, b.path)
		return
	}
	good := ok - b.zeroTok
	bd.countInt(&r.Successful, "successful", fmt.Sprintf("computed: %s - successful requests without output tokens", r.Paths["successful"]), good)
	if r.Errored != nil {
		bd.countInt(&r.Errored, "errored", fmt.Sprintf("computed: %s + successful requests without output tokens", r.Paths["errored"]), *r.Errored+b.zeroTok)
	}
	ttft := b.okTTFT
	for i := range ttft {
		ttft[i] /= 1000
	}
	for _, v := range append(ttft, b.okE2E...) {
		if !bd.check("request figure", b.path+".requests.successful[*]", v) {
			return
		}
	}
	e2e := b.okE2E
	r.TTFT, r.E2E = planner.Stat{}, planner.Stat{}
	for _, k := range []string{"mean", "p50", "p95", "p99"} {
		delete(r.Paths, "ttft_s."+k)
		delete(r.Paths, "e2e_s."+k)
	}
	bd.computeStat(&r.TTFT, "ttft_s", b.path+".requests.successful[*].time_to_first_token_ms", ttft)
	bd.computeStat(&r.E2E, "e2e_s", b.path+".requests.successful[*].request_latency", e2e)
	if r.RequestRate != nil && r.DurationS != nil && *r.DurationS > 0 {
		bd.setF(&r.RequestRate, "request_rate", "computed: successful / "+b.path+".duration", float64(good) / *r.DurationS)
	}
	bd.warn("no-tokens", "%d of the %d successful requests received no output tokens (no tokens received): they count as failed, and TTFT and end-to-end come from the %d requests that received tokens", b.zeroTok, ok, good)
}

// markKnee reads a run of GuideLLM's knee profile (a concurrent sweep,
// possibly refined around the point where output throughput flattens):
// its rows are concurrency rows like any other; the knee GuideLLM found
// (the report's conclusions: the knee_detection entry's final throughput
// result) is marked on the first measured level at or above it, and said
// on the file; a knee run without a conclusion, or one that found no knee,
// says so.
func (rep *gReport) markKnee(f *File) {
	knee := rep.config != nil && rep.config.Spec != nil && rep.config.Spec.Profile != nil && rep.config.Spec.Profile.Kind == "knee"
	for _, b := range rep.benches {
		knee = knee || b.config != nil && b.config.Profile != nil && b.config.Profile.Kind == "knee"
	}
	var c *gKneeConclusion
	where := ""
	for i, x := range rep.conclusions {
		if x != nil && x.Kind == "knee_detection" {
			c, where = x, fmt.Sprintf("conclusions[%d]", i)
			knee = true
		}
	}
	if !knee {
		return
	}
	f.Source.FormatVersion += ", knee profile"
	var t *gKneeResult
	if c != nil && c.Final != nil {
		t = c.Final.Throughput
	}
	switch {
	case t == nil:
		f.Warnings = append(f.Warnings, planner.Warning{Code: "knee-unknown", Message: "a run of GuideLLM's knee profile whose report holds no conclusion: its rows are read as a concurrency sweep, and the knee (where output throughput flattens) is not marked"})
		return
	case t.Status != "ok" || !t.Knee.set || !t.SaturationConcurrency.set:
		why := strings.TrimSpace(string(t.Reason))
		if why == "" {
			why = "no reason given"
		}
		f.Warnings = append(f.Warnings, planner.Warning{Code: "knee-none", Message: fmt.Sprintf("GuideLLM's knee profile found no knee (%s: %s): output throughput did not flatten over the concurrencies measured", where, why)})
		return
	}
	at := -1
	for i := range f.Rows {
		r := &f.Rows[i]
		if r.LoadKind == planner.LoadConcurrency && r.Load != nil && *r.Load == t.SaturationConcurrency.v {
			at = i
		}
	}
	msg := fmt.Sprintf("GuideLLM's knee profile found output throughput flattening at about %s concurrent streams (%s.final.throughput.knee = %s)", strconv.FormatFloat(t.Knee.v, 'f', 1, 64), where, strconv.FormatFloat(t.Knee.v, 'g', 6, 64))
	if at < 0 {
		f.Warnings = append(f.Warnings, planner.Warning{Code: "knee", Message: msg + fmt.Sprintf("; no row of the report is at its first measured level, %g streams", t.SaturationConcurrency.v)})
		return
	}
	r := &f.Rows[at]
	r.Warnings = append(r.Warnings, planner.Warning{Code: "knee", Message: msg + ": this is the first level measured at or above it; levels beyond it add latency more than throughput"})
	r.Paths["knee"] = where + ".final.throughput.saturation_concurrency"
	f.Warnings = append(f.Warnings, planner.Warning{Code: "knee", Message: msg + fmt.Sprintf("; marked on row %d (%g streams)", at, t.SaturationConcurrency.v)})
}

// engineFigures gives the row what the serving engine reported over the
// benchmark's measurement window, when GuideLLM's server-metrics collector
// scraped it (benchmarks[i].server_metrics, one summary per source): the
// peak KV-cache usage and requests waiting and running (a gauge's
// summary.max) and the preemptions (a counter's increase), in the names
// vLLM and SGLang give them; several sources or label sets give the
// fullest peak and the sum of the counters. They become the row's engine
// figures, read by the same rule as AIPerf's (docs/method.md, "Engine
// metrics of a row"). A collector that never scraped says so.
func (b *gBench) engineFigures(bd *builder) error {
	if len(b.server) == 0 {
		return nil
	}
	r := bd.row
	e := &planner.EngineMetrics{}
	found := 0
	var failed []string
	for _, m := range serverMetricNames {
		var best *float64
		for si, src := range b.server {
			for _, name := range m.names {
				var vals []struct {
					v    num
					path string
				}
				if m.stat == "total" {
					for i, c := range src.Counters[name] {
						vals = append(vals, struct {
							v    num
							path string
						}{c.Increase, fmt.Sprintf("%s.server_metrics[%d].counters.%s[%d].increase", b.path, si, name, i)})
					}
				} else {
					for i, g := range src.Gauges[name] {
						if g.Summary == nil {
							continue
						}
						vals = append(vals, struct {
							v    num
							path string
						}{g.Summary.Max, fmt.Sprintf("%s.server_metrics[%d].gauges.%s[%d].summary.max", b.path, si, name, i)})
					}
				}
				for _, x := range vals {
					if !x.v.set {
						continue
					}
					v := x.v.v
					if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || m.figure == "kv_cache_max" && v > 1 {
						return fmt.Errorf("%s: %s is not a reading an engine reports", x.path, planner.DisplayInput(v))
					}
					switch {
					case best == nil:
						best = planner.F(v)
						r.Paths["engine."+m.figure] = x.path
					case m.stat == "total":
						*best += v
						r.Paths["engine."+m.figure] += " + " + x.path
					case v > *best:
						*best = v
						r.Paths["engine."+m.figure] = x.path
					}
				}
			}
		}
		if best == nil {
			continue
		}
		found++
		switch m.figure {
		case "kv_cache_max":
			e.KVCacheMax = best
		case "waiting_max":
			e.WaitingMax = best
		case "running_max":
			e.RunningMax = best
		case "preemptions":
			e.Preemptions = best
		}
	}
	for si, src := range b.server {
		if src.Scrapes.set && src.Scrapes.v == 0 {
			failed = append(failed, fmt.Sprintf("%s (server_metrics[%d]: 0 scrapes, %g failed)", cmpOr(string(src.Source), "a source"), si, src.ScrapeErrors.v))
		}
	}
	if len(failed) > 0 {
		bd.warn("server-metrics-failed", "GuideLLM's server-metrics collector could not scrape %s: no engine figures from it", strings.Join(failed, ", "))
	}
	if found > 0 {
		r.Engine = e
	}
	return nil
}
