package planner

import (
	"slices"
	"strings"
	"testing"
)

func TestParseDayProfile(t *testing.T) {
	busy := make([]float64, 24)
	for h := range busy {
		busy[h] = 1
		if h >= 9 && h < 17 {
			busy[h] = 4
		}
	}
	for _, typed := range []string{"9-17 at 4, rest at 1", "9-17 at 4", "09:00-17:00 x4; rest 1x", "1,1,1,1,1,1,1,1,1,4,4,4,4,4,4,4,4,1,1,1,1,1,1,1"} {
		got, err := ParseDayProfile(typed)
		if err != nil || !slices.Equal(got, busy) {
			t.Errorf("%q: %v, %v", typed, got, err)
		}
	}
	if got := FormatDayProfile(busy); got != "9-17 at 4, rest at 1" {
		t.Errorf("format %q", got)
	}
	// Past midnight, and a rest of nothing.
	got, err := ParseDayProfile("22-2 at 3, rest at 0")
	if err != nil || got[22] != 3 || got[1] != 3 || got[2] != 0 || got[12] != 0 {
		t.Errorf("wrap: %v, %v", got, err)
	}
	if back, _ := ParseDayProfile(FormatDayProfile(got)); !slices.Equal(back, got) {
		t.Errorf("round trip %q", FormatDayProfile(got))
	}
	if p, err := ParseDayProfile("  "); p != nil || err != nil {
		t.Errorf("blank: %v %v", p, err)
	}
	for typed, want := range map[string]string{
		"1,2,3":                     "24 numbers are needed, one per clock hour from 00:00; got 3",
		"9-17 at two":               `"9-17 at two": the weight "two" is not a number`,
		"9-25 at 2":                 `"9-25 at 2": 25 is not a clock hour (0 to 24)`,
		"9-17 at 2, 12-13 at 3":     `"12-13 at 3": hour 12:00 is already given`,
		"rest at 0":                 "every hour weighs 0",
		"9-17 at -2":                "hour 09:00 weighs -2: a weight is 0 or more",
		"busy at 2":                 `"busy at 2": expected clock hours and a weight`,
		"9-17":                      `"9-17": the weight is missing`,
		"9-17 at 2, rest 1, rest 2": `"rest 2": the rest of the day is given twice`,
	} {
		if _, err := ParseDayProfile(typed); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", typed, err, want)
		}
	}
}
