package planner

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A typed day profile (docs/method.md, "The hybrid plan") is how a day's
// requests spread over its 24 clock hours, as relative weights: either 24
// numbers, one per hour from 00:00 ("1,1,1,1,1,1,1,1,1,4,4,..."), or
// clock-hour ranges with their weight and the rest of the day's
// ("9-17 at 4, rest at 1": 8 hours from 09:00 to 17:00 four times as busy
// as the others). A range's end is exclusive and may wrap past midnight
// ("22-2"); without "rest" the other hours weigh 1 (flat). The planner
// scales the weights to shares of the day.

// ParseDayProfile reads a typed day profile; "" is none (nil). The error
// names what was wrong.
func ParseDayProfile(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	items := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
	for i := range items {
		items[i] = strings.TrimSpace(items[i])
	}
	if nums, ok := plainNumbers(items); ok {
		if len(nums) != 24 {
			return nil, fmt.Errorf("24 numbers are needed, one per clock hour from 00:00; got %d", len(nums))
		}
		return checkProfile(nums)
	}
	p := make([]float64, 24)
	set := make([]bool, 24)
	rest := 1.0
	restSet := false
	for _, it := range items {
		if it == "" {
			continue
		}
		lower := strings.ToLower(it)
		if r, ok := strings.CutPrefix(lower, "rest"); ok {
			w, err := profileWeight(r, it)
			if err != nil {
				return nil, err
			}
			if restSet {
				return nil, fmt.Errorf("%q: the rest of the day is given twice", it)
			}
			rest, restSet = w, true
			continue
		}
		from, to, r, err := profileRange(lower, it)
		if err != nil {
			return nil, err
		}
		w, err := profileWeight(r, it)
		if err != nil {
			return nil, err
		}
		for h := from; h != to; h = (h + 1) % 24 {
			if set[h] {
				return nil, fmt.Errorf("%q: hour %02d:00 is already given", it, h)
			}
			p[h], set[h] = w, true
		}
	}
	for h := range p {
		if !set[h] {
			p[h] = rest
		}
	}
	return checkProfile(p)
}

// plainNumbers reads items that are all plain numbers.
func plainNumbers(items []string) ([]float64, bool) {
	var out []float64
	for _, it := range items {
		if it == "" {
			continue
		}
		v, err := strconv.ParseFloat(it, 64)
		if err != nil {
			return nil, false
		}
		out = append(out, v)
	}
	return out, len(out) > 1
}

// rangeRe is clock hours at the start of an item: "9", "9-17", "09:00-17:00".
var rangeRe = regexp.MustCompile(`^(\d{1,2})(?::00)?\s*(?:[-–]\s*(\d{1,2})(?::00)?)?(.*)$`)

// profileRange reads "9-17" (or "9") at the start of an item and returns
// the hours [from, to) and what follows.
func profileRange(lower, item string) (from, to int, rest string, err error) {
	m := rangeRe.FindStringSubmatch(lower)
	if m == nil {
		return 0, 0, "", fmt.Errorf("%q: expected clock hours and a weight, e.g. \"9-17 at 4\", \"rest at 1\", or 24 numbers", item)
	}
	hour := func(t string) (int, error) {
		h, err := strconv.Atoi(t)
		if err != nil || h > 24 {
			return 0, fmt.Errorf("%q: %s is not a clock hour (0 to 24)", item, t)
		}
		return h, nil
	}
	if from, err = hour(m[1]); err != nil {
		return
	}
	to = from + 1
	if m[2] != "" {
		if to, err = hour(m[2]); err != nil {
			return
		}
	}
	from, to = from%24, to%24
	if from == to {
		return 0, 0, "", fmt.Errorf("%q: the hours from %02d:00 to %02d:00 are empty or the whole day; give the rest with \"rest at …\"", item, from, to)
	}
	return from, to, m[3], nil
}

// profileWeight reads " at 4", " 4x", " x4", ": 4", "=4".
func profileWeight(s, item string) (float64, error) {
	s = strings.TrimSpace(s)
	for _, p := range []string{"at", ":", "=", "x", "×"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "x"), "×"))
	if s == "" {
		return 0, fmt.Errorf("%q: the weight is missing, e.g. \"9-17 at 4\"", item)
	}
	w, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: the weight %q is not a number, e.g. \"9-17 at 4\"", item, s)
	}
	return w, nil
}

// checkProfile refuses negative or non-finite weights and a day of zeros.
func checkProfile(p []float64) ([]float64, error) {
	sum := 0.0
	for h, v := range p {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("hour %02d:00 weighs %s: a weight is 0 or more", h, fmtNum(v))
		}
		sum += v
	}
	if sum <= 0 {
		return nil, errors.New("every hour weighs 0: at least one hour must carry requests")
	}
	return p, nil
}

// FormatDayProfile writes a day profile as ParseDayProfile reads it: as
// ranges with the most common weight as the rest when that takes four
// ranges or fewer, else as 24 numbers.
func FormatDayProfile(p []float64) string {
	if len(p) != 24 {
		return ""
	}
	count := map[float64]int{}
	for _, v := range p {
		count[v]++
	}
	rest := p[0]
	for _, v := range p {
		if count[v] > count[rest] {
			rest = v
		}
	}
	var parts []string
	for h := 0; h < 24; {
		if p[h] == rest {
			h++
			continue
		}
		e := h
		for e < 24 && p[e] == p[h] {
			e++
		}
		parts = append(parts, fmt.Sprintf("%d-%d at %s", h, e, weightText(p[h])))
		h = e
	}
	if len(parts) > 4 {
		nums := make([]string, 24)
		for h, v := range p {
			nums[h] = weightText(v)
		}
		return strings.Join(nums, ", ")
	}
	return strings.Join(append(parts, "rest at "+weightText(rest)), ", ")
}

// weightText writes a weight exactly, so a profile reads back the same.
func weightText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
