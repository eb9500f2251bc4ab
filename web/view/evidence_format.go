package view

import (
	"fmt"
	"strconv"

	"github.com/a-h/templ"

	"capplan/planner"
	"capplan/web/charts"
)

// Formatting of the operations evidence for people.

func telemetrySHA(in planner.Inputs) string {
	if in.Telemetry == nil {
		return ""
	}
	return in.Telemetry.SHA256
}

func soakSHA(in planner.Inputs) string {
	if in.Soak == nil {
		return ""
	}
	return in.Soak.SHA256
}

func showbackSHA(in planner.Inputs) string {
	if in.Showback == nil {
		return ""
	}
	return in.Showback.SHA256
}

// pctN formats a fraction as a percentage with decimals, or more to keep 3
// significant figures (planner.DisplayPercent): 0.99994 -> "99.994 %".
func pctN(v float64, decimals int) string { return planner.DisplayPercent(v, decimals) }

// optPct is pctN for an optional fraction, "—" when absent.
func optPct(v *float64, decimals int) string {
	if v == nil {
		return "—"
	}
	return pctN(*v, decimals)
}

// optPctPoints formats a figure already in percent.
func optPctPoints(v *float64) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'f', 0, 64) + " %"
}

// signedPP formats a gap in percentage points with its sign.
func signedPP(v float64) string {
	return strconv.FormatFloat(v, 'f', 1, 64) + " pp"
}

func groupInt(v int64) string { return groupDigits(strconv.FormatInt(v, 10)) }

func optInt64(v *int64) string {
	if v == nil {
		return "—"
	}
	return groupInt(*v)
}

// optMS formats optional seconds as milliseconds.
func optMS(v *float64) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v*1000, 'f', -1, 64) + " ms"
}

func optSeconds(v *float64) string {
	if v == nil {
		return "—"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64) + " s"
}

func optMoney(m *planner.Money) string {
	if m == nil {
		return "(cost not known yet)"
	}
	return moneyText(*m)
}

func roundTo(v float64, decimals int) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
	return p
}

// drainRejected is "rejected / arrivals", or the rejected count alone.
func drainRejected(d planner.Drain) string {
	if d.Arrivals == nil {
		return groupInt(d.Rejected)
	}
	return groupInt(d.Rejected) + " / " + groupInt(*d.Arrivals)
}

// showbackChart draws each tenant's share of the bill under each meter.
func showbackChart(sb *planner.Showback) templ.Component {
	cats := make([]string, len(sb.Meters))
	series := map[string][]float64{}
	for i, m := range sb.Meters {
		cats[i] = "by " + m.Meter
		for _, t := range m.Tenants {
			if series[t.Tenant] == nil {
				series[t.Tenant] = make([]float64, len(sb.Meters))
			}
			series[t.Tenant][i] = roundTo(t.Share*100, 1)
		}
	}
	return charts.BarChart("Share of the bill by meter", cats, series, "% of the bill")
}

// showbackSummary is the folded showback's line: the tenants, the meters,
// and the tenant whose share the meter moves most.
func showbackSummary(sb *planner.Showback) string {
	out := fmt.Sprintf("Split among %s by %d meters", plural(len(sb.Gaps), "tenant", "tenants"), len(sb.Meters))
	if g := sb.WidestGap(); g != nil {
		out += fmt.Sprintf(": the meter moves the share of %s most, %s by tokens against time-share", g.Tenant, signedPP(g.TokensVsTimePP))
	}
	return out
}

// soakSummary is the folded soak detail's line: what it holds and the
// run's output tokens per joule.
func soakSummary(s planner.SoakResult, hours int) string {
	out := fmt.Sprintf("Energy, %s and %s in detail", plural(hours, "hour", "hours"), plural(len(s.Drains), "drain", "drains"))
	if s.TokensPerJoule != nil {
		out += ": " + num(s.TokensPerJoule, 2) + " output tokens per joule over the run"
	}
	return out
}
