package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ObjectiveSyntax documents the text form of an objective, for help texts.
const ObjectiveSyntax = `success>=99%,ttft_p95<=2s,e2e_p95<=15s[,tpot_p95<=0.1s|,speed_p95>=20tok/s][,itl_p95<=50ms][,headroom>=10%][,no_oom]

  success>=P%      lowest success rate, successful / (successful + errored)
  ttft_pNN<=T      time to first token at percentile NN (one percentile for all bounds)
  ttfot_pNN<=T     time to first visible output token (after a reasoning model's reasoning)
  e2e_pNN<=T       end-to-end request latency
  tpot_pNN<=T      time per output token (optional)
  speed_pNN>=S     the same bound as an output speed per user, S in tok/s (tok/s/user):
                   speed_p95>=20tok/s is tpot_p95<=50ms (give one of the two)
  itl_pNN<=T       inter-token latency (optional)
  headroom>=P%     lowest free device memory at peak (optional)
  no_oom           no out-of-memory error or restart (optional)
  T is a duration in s or ms: 2s, 0.1s, 50ms.`

// ParseObjective reads an objective in the syntax of ObjectiveSyntax, e.g.
// "success>=99%,ttft_p95<=2s,e2e_p95<=15s,headroom>=10%,no_oom". All latency
// bounds share one percentile. The error names the bad term.
func ParseObjective(s string) (Objective, error) {
	var o Objective
	seen := map[string]bool{}
	if strings.TrimSpace(s) == "" {
		return o, fmt.Errorf("objective: empty")
	}
	for _, raw := range strings.Split(s, ",") {
		term := strings.Join(strings.Fields(raw), "")
		if term == "" {
			return o, fmt.Errorf("objective: empty term in %q", s)
		}
		bad := func(why string) error { return fmt.Errorf("objective term %q: %s", strings.TrimSpace(raw), why) }
		if term == "no_oom" {
			o.NoOOM = true
			continue
		}
		name, op, value, ok := splitTerm(term)
		if !ok {
			return o, bad("want name, <= or >=, and a value, e.g. e2e_p95<=15s")
		}
		key, pct, hasPct := strings.Cut(name, "_p")
		if seen[key] {
			return o, bad("given twice")
		}
		if (key == "speed" && seen["tpot"]) || (key == "tpot" && seen["speed"]) {
			return o, bad("the output speed per user and the TPOT bound are one bound (speed = 1 / ITL, judged on the ITL): give one of the two")
		}
		seen[key] = true
		switch key {
		case "success", "headroom":
			if hasPct {
				return o, bad("takes no percentile")
			}
			if op != ">=" {
				return o, bad("use >=")
			}
			v, err := parsePercent(value)
			if err != nil {
				return o, bad(err.Error())
			}
			if key == "success" {
				o.MinSuccess = v
			} else {
				o.MinHeadroom = &v
			}
		case "ttft", "ttfot", "e2e", "tpot", "itl", "speed":
			if !hasPct {
				return o, bad("needs a percentile, e.g. " + key + "_p95")
			}
			p, err := strconv.ParseFloat(pct, 64)
			if err != nil || p <= 0 || p >= 100 {
				return o, bad("percentile must be a number between 0 and 100")
			}
			if o.Percentile != 0 && o.Percentile != p {
				return o, bad(fmt.Sprintf("percentile p%s differs from p%s: one percentile for all bounds", pct, fmtNum(o.Percentile)))
			}
			o.Percentile = p
			if key == "speed" {
				if op != ">=" {
					return o, bad("an output speed is a floor: use >=, e.g. speed_p95>=20tok/s")
				}
				v, err := parseSpeed(value)
				if err != nil {
					return o, bad(err.Error())
				}
				t, err := TPOTForSpeed(v)
				if err != nil {
					return o, bad(err.Error())
				}
				o.TPOTMax, o.TPOTAsSpeed = &t, true
				continue
			}
			if op != "<=" {
				return o, bad("use <=")
			}
			v, err := parseDuration(value)
			if err != nil {
				return o, bad(err.Error())
			}
			switch key {
			case "ttft":
				o.TTFTMax = &v
			case "ttfot":
				o.TTFOTMax = &v
			case "e2e":
				o.E2EMax = &v
			case "tpot":
				o.TPOTMax = &v
			case "itl":
				o.ITLMax = &v
			}
		default:
			return o, bad("unknown name; want success, ttft_pNN, ttfot_pNN, e2e_pNN, tpot_pNN, speed_pNN, itl_pNN, headroom or no_oom")
		}
	}
	if !seen["success"] {
		return o, fmt.Errorf("objective: success>=P%% is required")
	}
	if o.Percentile == 0 {
		o.Percentile = 95
	}
	if err := o.Validate(); err != nil {
		return o, err
	}
	return o, nil
}

// splitTerm splits "e2e_p95<=15s" into name, operator and value.
func splitTerm(t string) (name, op, value string, ok bool) {
	for _, op := range []string{"<=", ">="} {
		if n, v, found := strings.Cut(t, op); found && n != "" && v != "" {
			return n, op, v, true
		}
	}
	return "", "", "", false
}

func parsePercent(v string) (float64, error) {
	num, found := strings.CutSuffix(v, "%")
	if !found {
		return 0, fmt.Errorf("want a percentage such as 99%%, got %q", v)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f > 100 {
		return 0, fmt.Errorf("want a percentage between 0%% and 100%%, got %q", v)
	}
	return f / 100, nil
}

// parseSpeed reads an output speed per user: "20tok/s" or "20tok/s/user".
func parseSpeed(v string) (float64, error) {
	num, ok := strings.CutSuffix(v, "tok/s/user")
	if !ok {
		num, ok = strings.CutSuffix(v, "tok/s")
	}
	if !ok {
		return 0, fmt.Errorf("want an output speed in tok/s such as 20tok/s, got %q", v)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("want an output speed in tok/s such as 20tok/s, got %q", v)
	}
	return f, nil
}

func parseDuration(v string) (float64, error) {
	div := 1.0
	num, ms := strings.CutSuffix(v, "ms")
	if ms {
		div = 1000
	} else if n, s := strings.CutSuffix(v, "s"); s {
		num = n
	} else {
		return 0, fmt.Errorf("want a duration in s or ms such as 2s or 50ms, got %q", v)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) {
		return 0, fmt.Errorf("want a positive duration, got %q", v)
	}
	return f / div, nil
}

// String writes the objective in the syntax ParseObjective reads.
func (o Objective) String() string {
	p := "_p" + fmtNum(o.Percentile)
	terms := []string{"success>=" + fmtPercent(o.MinSuccess)}
	for _, b := range []struct {
		name string
		v    *float64
	}{{"ttft", o.TTFTMax}, {"ttfot", o.TTFOTMax}, {"e2e", o.E2EMax}, {"tpot", o.TPOTMax}, {"itl", o.ITLMax}} {
		switch {
		case b.v == nil:
		case b.name == "tpot" && o.TPOTAsSpeed:
			terms = append(terms, "speed"+p+">="+fmtSpeed(OutputSpeed(*b.v))+"tok/s")
		default:
			terms = append(terms, b.name+p+"<="+fmtDuration(*b.v))
		}
	}
	if o.MinHeadroom != nil {
		terms = append(terms, "headroom>="+fmtPercent(*o.MinHeadroom))
	}
	if o.NoOOM {
		terms = append(terms, "no_oom")
	}
	return strings.Join(terms, ",")
}

// Validate checks the objective: a percentile in (0, 100), a success rate
// and headroom within 0..100 %, positive latency bounds.
func (o Objective) Validate() error {
	var es FieldErrors
	if !(o.Percentile > 0 && o.Percentile < 100) {
		es.add("objective.percentile", fmt.Sprintf("must be between 0 and 100, got %s", fmtNum(o.Percentile)))
	}
	if !(o.MinSuccess >= 0 && o.MinSuccess <= 1) {
		es.add("objective.min_success", fmt.Sprintf("must be between 0 %% and 100 %%, got %s", fmtPercent(o.MinSuccess)))
	}
	for _, b := range []struct {
		field string
		v     *float64
	}{{"objective.ttft_max_s", o.TTFTMax}, {"objective.ttfot_max_s", o.TTFOTMax}, {"objective.e2e_max_s", o.E2EMax}, {"objective.tpot_max_s", o.TPOTMax}, {"objective.itl_max_s", o.ITLMax}} {
		if b.v != nil && !(*b.v > 0) {
			es.add(b.field, fmt.Sprintf("must be a positive duration, got %s", fmtNum(*b.v)))
		}
	}
	if o.MinHeadroom != nil && !(*o.MinHeadroom >= 0 && *o.MinHeadroom < 1) {
		es.add("objective.min_headroom", fmt.Sprintf("must be between 0 %% and 100 %%, got %s", fmtPercent(*o.MinHeadroom)))
	}
	return es.err()
}

// Loosened reports whether next is looser than prev in any term, naming each
// loosened term: a latency bound raised or dropped, the percentile lowered,
// the success rate or headroom lowered or dropped, no_oom dropped.
func Loosened(prev, next Objective) (bool, []string) {
	var out []string
	if next.Percentile < prev.Percentile {
		out = append(out, fmt.Sprintf("percentile lowered from p%s to p%s", fmtNum(prev.Percentile), fmtNum(next.Percentile)))
	}
	if next.MinSuccess < prev.MinSuccess {
		out = append(out, fmt.Sprintf("success lowered from %s to %s", fmtPercent(prev.MinSuccess), fmtPercent(next.MinSuccess)))
	}
	for _, b := range []struct {
		label      string
		prev, next *float64
	}{
		{"TTFT", prev.TTFTMax, next.TTFTMax},
		{"TTFOT", prev.TTFOTMax, next.TTFOTMax},
		{"end-to-end", prev.E2EMax, next.E2EMax},
		{tpotLabel(prev, next), prev.TPOTMax, next.TPOTMax},
		{"ITL", prev.ITLMax, next.ITLMax},
	} {
		switch {
		case b.prev == nil:
		case b.label == speedLabel && b.next == nil:
			out = append(out, fmt.Sprintf("output speed floor %s tok/s/user (TPOT %s) dropped", fmtSpeed(OutputSpeed(*b.prev)), fmtDuration(*b.prev)))
		case b.label == speedLabel && *b.next > *b.prev:
			out = append(out, fmt.Sprintf("output speed floor lowered from %s to %s tok/s/user (TPOT bound raised from %s to %s)",
				fmtSpeed(OutputSpeed(*b.prev)), fmtSpeed(OutputSpeed(*b.next)), fmtDuration(*b.prev), fmtDuration(*b.next)))
		case b.next == nil:
			out = append(out, fmt.Sprintf("%s bound %s dropped", b.label, fmtDuration(*b.prev)))
		case *b.next > *b.prev:
			out = append(out, fmt.Sprintf("%s bound raised from %s to %s", b.label, fmtDuration(*b.prev), fmtDuration(*b.next)))
		}
	}
	switch {
	case prev.MinHeadroom == nil:
	case next.MinHeadroom == nil:
		out = append(out, fmt.Sprintf("headroom %s dropped", fmtPercent(*prev.MinHeadroom)))
	case *next.MinHeadroom < *prev.MinHeadroom:
		out = append(out, fmt.Sprintf("headroom lowered from %s to %s", fmtPercent(*prev.MinHeadroom), fmtPercent(*next.MinHeadroom)))
	}
	if prev.NoOOM && !next.NoOOM {
		out = append(out, "no_oom dropped")
	}
	return len(out) > 0, out
}

// fmtNum writes a number to 4 significant digits (whole numbers in full),
// without trailing zeros or exponent: 8, 16.2, 13.94, 0.05234.
func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	d := 3 - int(math.Floor(math.Log10(math.Abs(v))))
	d = max(d, 0)
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// fmtPercent writes a fraction as a percentage: 0.99 -> "99%".
func fmtPercent(f float64) string {
	return strconv.FormatFloat(math.Round(f*100*1e6)/1e6, 'f', -1, 64) + "%"
}

// fmtDuration writes seconds as "15s", "0.1s" or, below 0.1 s, "50ms".
func fmtDuration(s float64) string {
	if ms := s * 1000; s < 0.1 && math.Abs(ms-math.Round(ms)) < 1e-9 {
		return strconv.FormatFloat(math.Round(ms), 'f', -1, 64) + "ms"
	}
	return strconv.FormatFloat(math.Round(s*1e9)/1e9, 'f', -1, 64) + "s"
}
