package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

func plural(n int, one, many string) string { return planner.Plural(n, one, many) }

// byteSize formats a size for people: 2 GiB, 300 MiB, 12 KiB, 900 bytes.
func byteSize(n int64) string { return planner.ByteSize(n) }

func SortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// num formats an optional figure by the display rule (planner.DisplayNumber:
// the given decimals, or more to keep 3 significant figures), "—" when
// absent; decimals -1 writes it as it is (a load as set: 8, 0.5).
// numTitle is a figure's tooltip: its value to six significant figures
// (planner.DisplayInput), for a cell that shows it rounded; "" when absent.
func numTitle(v *float64) string {
	if v == nil {
		return ""
	}
	return "exact: " + planner.DisplayInput(*v)
}

func num(v *float64, decimals int) string {
	if v == nil {
		return "—"
	}
	if decimals < 0 {
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	return planner.DisplayNumber(*v, decimals)
}

// optNum formats an optional figure for a form field: "" when absent; a
// float's digits beyond 6 significant figures are not shown
// (planner.DisplayInput: 65.599609375 -> 65.5996).
func optNum(v *float64) string {
	if v == nil {
		return ""
	}
	return planner.DisplayInput(*v)
}

// plainNum formats a float for a form field without trailing zeros, ""
// for zero (planner.DisplayInput).
func plainNum(v float64) string {
	if v == 0 {
		return ""
	}
	return planner.DisplayInput(v)
}

func plainInt(v int) string {
	if v == 0 {
		return ""
	}
	return strconv.Itoa(v)
}

// optInt formats an optional count, "—" when absent.
func optInt(v *int) string {
	if v == nil {
		return "—"
	}
	return strconv.Itoa(*v)
}

func JoinLoads(ls []float64) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = strconv.FormatFloat(l, 'f', -1, 64)
	}
	return strings.Join(parts, ", ")
}

// When formats a timestamp for people: UTC, to the minute.
func When(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// pct shows a share as a percentage by the planner's rule: 0.14 %, 62 %.
func pct(v float64) string { return planner.DisplayShare(v) }

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }

func ParseDate(s string) (time.Time, error) { return time.Parse("2006-01-02", s) }

func itoa(v int) string { return strconv.Itoa(v) }

func dash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "—"
	}
	return s
}

func joinStrings(ss []string) string { return strings.Join(ss, ", ") }

// pctField is a fraction as a percentage for a form field (and the
// workload's tolerance): planner.DisplayInput, "" for zero.
func pctField(v float64) string {
	if v == 0 {
		return ""
	}
	return planner.DisplayInput(v * 100)
}

func optPctField(v *float64) string {
	if v == nil {
		return ""
	}
	return planner.DisplayInput(*v * 100)
}

// toleranceField is the workload tolerance for its form field: empty for
// the default.
func toleranceField(t float64) string {
	if t == 0 {
		return ""
	}
	return pctField(t)
}

func durationText(s float64) string {
	if s == 0 {
		return "duration —"
	}
	return strconv.FormatFloat(s, 'f', -1, 64) + " s"
}

func stopText(c planner.Contract) string {
	var parts []string
	if c.StopAfterErrors > 0 {
		parts = append(parts, fmt.Sprintf("stop after %d errors", c.StopAfterErrors))
	}
	if c.StopRule != "" {
		parts = append(parts, c.StopRule)
	}
	if len(parts) == 0 {
		return "no stop rule"
	}
	return strings.Join(parts, "; ")
}

// fieldLabel names a form field as people read it ("Success rate at
// least"), not by its key ("objective.min_success").
func fieldLabel(key string) string { return planner.FieldLabel(key) }

// moneyText shows an amount as the planner displays it (planner.DisplayMoney:
// cents, or 3 significant figures when cents show fewer): 2,000.00, 0.00578.
func moneyText(m planner.Money) string { return m.Display() }

// exactTitle is the tooltip of a displayed amount: its exact value.
func exactTitle(m planner.Money) string { return "exact: " + m.Exact.String() }

// optExactTitle is exactTitle of an optional amount, "" when absent.
func optExactTitle(m *planner.Money) string {
	if m == nil {
		return ""
	}
	return exactTitle(*m)
}

// optMoney shows an optional amount, "—" when absent.
func optMoneyText(m *planner.Money) string {
	if m == nil {
		return "—"
	}
	return moneyText(*m)
}

// decText shows an exact decimal as the planner computed it.
func decText(d *decimal.Decimal) string {
	if d == nil {
		return "—"
	}
	return groupDigits(d.String())
}

// count shows a whole number with thousands separators.
func countText(n int64) string { return groupDigits(fmt.Sprint(n)) }

// groupDigits puts thousands separators into a plain decimal number.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// rateText shows a rate by the display rule: 3 significant figures at
// least, a whole number whole (0.438, 1.93, 45.3, 512).
func rateText(v float64) string { return planner.DisplayNumber(v, 0) }

// optRate shows an optional rate.
func optRateText(v *float64) string {
	if v == nil {
		return "—"
	}
	return rateText(*v)
}

// evidenceText cites one input: amount, unit, source and date.
func evidenceText(e planner.Evidence) string {
	s := e.Amount
	if e.Unit != "" {
		s += " " + e.Unit
	}
	if e.Source != "" {
		s += ", " + e.Source
	}
	if e.EvidenceDate != "" {
		s += ", " + e.EvidenceDate
	}
	return s
}

// evidenceStatus names what is wrong with a piece of evidence the planner
// flagged: "stale: 120 days old, …" for an old date, the problem alone
// ("no evidence date", "malformed evidence date") when there is no date to
// be old by.
func evidenceStatus(e planner.Evidence) string {
	switch {
	case e.Future, e.AgeDays == nil && e.Problem != "":
		return e.Problem
	case e.Problem != "":
		return "stale: " + e.Problem
	}
	return "stale"
}

// tokenShape is the tokens per request the costs per million tokens count:
// "512 input + 256 output tokens".
func tokenShape(r planner.Result) string {
	for _, s := range r.Scenarios {
		for _, o := range s.Options {
			if p := o.PerMTokens; p != nil {
				return planner.DisplayNumber(p.InputTokens, 0) + " input + " + planner.DisplayNumber(p.OutputTokens, 0) + " output tokens"
			}
		}
	}
	return "no tokens"
}

// Capitalize starts s with a capital letter.
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
