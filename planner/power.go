package planner

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// PowerUse says how the power line was priced (docs/method.md, "Power by
// use"): by use, idle watts for the idle time and the measured watts for
// the busy time, when the box's idle draw is known; else the measured (or
// typed) watts for every powered hour, as before, and why.
type PowerUse struct {
	// ByUse is true when the power is priced by use.
	ByUse bool `json:"by_use"`
	// IdleWatts is the box's idle draw and IdleSource where it came from
	// ("typed", or the GPU log with its idle samples); nil when unknown.
	IdleWatts  *float64 `json:"idle_watts"`
	IdleSource string   `json:"idle_source,omitempty"`
	// ServiceRate is the box's measured service: the closed-loop ceiling's
	// successful in-objective requests a second, at which it drew the
	// measured watts. BusyHours follows from it.
	ServiceRate *float64 `json:"service_rate"`
	// PoweredHours is a box's powered hours a month (730 unless typed).
	PoweredHours float64 `json:"powered_hours"`
	// EnergyPerRequest is the busy time's power above idle for one
	// request, in V_local: (measured - idle) W x BusyHours(1) / 1000 x
	// price x PUE, tax counted.
	EnergyPerRequest Money `json:"energy_per_request"`
	// AlwaysBusy is the power line had the box drawn the measured watts
	// every powered hour (the flat figure, before tax), what a GPU-hour at
	// 100 % utilisation carries (docs/method.md, "Frontier-comparable").
	AlwaysBusy Money `json:"always_busy"`
	// Text says which pricing was used and why, in words.
	Text string `json:"text"`
}

// BusyHours is the one figure of the time boxes spend serving requests:
// the requests over the box's measured service rate (successful
// in-objective requests a second at the closed-loop ceiling, where it drew
// its measured watts), in hours. The power by use (V_local's energy), the
// scenarios' utilisation and the workbook's formulas all read it. A box is
// busy for its share of the month and idle for the rest; nil rate: unknown.
func BusyHours(requests decimal.Decimal, serviceRate float64) decimal.Decimal {
	if serviceRate <= 0 {
		return decimal.Zero
	}
	return requests.Div(decimal.NewFromFloat(serviceRate).Mul(decimal.NewFromInt(3600)))
}

// Utilisation is the share of the boxes' powered hours busy serving the
// month's requests: BusyHours over boxes x powered hours.
func Utilisation(requests int64, boxes int, poweredHours decimal.Decimal, serviceRate float64) *float64 {
	if boxes <= 0 || serviceRate <= 0 || !poweredHours.IsPositive() {
		return nil
	}
	u := BusyHours(decimal.NewFromInt(requests), serviceRate).Div(poweredHours.Mul(decimal.NewFromInt(int64(boxes)))).InexactFloat64()
	return &u
}

// powerInputs is what pricing power by use needs beyond the costs form:
// the idle draw the GPU log measured (used only when the busy watts are
// the log's too) and the box's measured service rate.
type powerInputs struct {
	logIdleWatts *float64
	logIdleText  string
	busyFromLog  bool
	serviceRate  *float64
}

// idleWatts picks the box's idle draw: typed on the costs form, else the
// GPU log's idle samples when the busy watts are the log's (a log's GPU
// board power against a typed box draw would mix two meters). why says
// why none is used.
func (p *powerInputs) idleWatts(s SelfHostedCosts) (w decimal.Decimal, src string, ok bool, why string) {
	switch {
	case s.PowerIdleWatts != nil:
		return s.PowerIdleWatts.Amount, "typed", true, ""
	case p == nil || p.logIdleWatts == nil:
		why = "no idle power known: type the box's idle draw on the costs form, or import a GPU log with idle samples"
		if p != nil && p.logIdleText != "" {
			why = p.logIdleText + "; type the box's idle draw on the costs form"
		}
		return decimal.Zero, "", false, why
	case !p.busyFromLog:
		return decimal.Zero, "", false, "the GPU log's idle power is not used against busy watts that are not the log's (two meters): type the box's idle draw on the costs form"
	}
	return decimal.NewFromFloat(*p.logIdleWatts), p.logIdleText, true, ""
}

// idlePowerText is the box's idle draw from an imported GPU log
// (TelemetryInput.IdlePowerW, see TelemetryAligner.IdlePower) and where it
// came from, or nil and why there is none.
func idlePowerText(t *TelemetryInput) (*float64, string) {
	if t == nil {
		return nil, ""
	}
	if t.IdlePowerW == nil {
		if t.IdleSamples == 0 {
			return nil, "the GPU log " + t.Source + " has no idle samples with power (or was imported before idle power was kept)"
		}
		return nil, fmt.Sprintf("the GPU log %s has %d idle samples but not with power for every GPU", t.Source, t.IdleSamples)
	}
	return t.IdlePowerW, fmt.Sprintf("GPU log %s: mean of %d idle samples", t.Source, t.IdleSamples)
}

// pricePower writes the power line by use when the idle draw is known
// (docs/method.md, "Power by use"): idle watts for every powered hour in
// F_local and the measured watts above idle for the busy time in V_local,
// so n boxes serving N requests pay n x idle x hours + (measured - idle) x
// BusyHours(N). It returns the line's monthly amount before tax, its
// basis, and the energy per request before tax (zero when not by use).
func pricePower(s SelfHostedCosts, watts decimal.Decimal, wattsKnown bool, price, pue, hours decimal.Decimal, unit string, p *powerInputs, out *SelfHostedCost) (line decimal.Decimal, arith string, energy decimal.Decimal) {
	flat := watts.Mul(hours).Div(thousand).Mul(price).Mul(pue)
	flatArith := fmt.Sprintf("%s W x %s h / 1000 x %s %s x %s PUE", DisplayInputDecimal(watts), hours, price, unit, pue)
	idle, src, ok, why := p.idleWatts(s)
	u := &out.Power
	if ok {
		u.IdleWatts, u.IdleSource = F(idle.InexactFloat64()), src
	}
	switch {
	case !wattsKnown:
		u.Text = "power not priced by use: no measured or typed draw"
		return flat, flatArith, decimal.Zero
	case !ok:
		u.Text = fmt.Sprintf("power priced at %s W for every powered hour, as if always busy: %s", DisplayInputDecimal(watts), why)
		return flat, flatArith, decimal.Zero
	case idle.GreaterThan(watts):
		u.Text = fmt.Sprintf("power priced at %s W for every powered hour: the idle draw (%s W, %s) is above the measured draw, so it is not used", DisplayInputDecimal(watts), DisplayInputDecimal(idle), src)
		return flat, flatArith, decimal.Zero
	case p == nil || p.serviceRate == nil || *p.serviceRate <= 0:
		u.Text = fmt.Sprintf("power priced at %s W for every powered hour: no measured service rate at the ceiling to turn requests into busy time", DisplayInputDecimal(watts))
		return flat, flatArith, decimal.Zero
	}
	u.ByUse, u.ServiceRate, u.PoweredHours = true, F(*p.serviceRate), hours.InexactFloat64()
	u.AlwaysBusy = NewMoney(flat)
	line = idle.Mul(hours).Div(thousand).Mul(price).Mul(pue)
	energy = watts.Sub(idle).Mul(BusyHours(decimal.NewFromInt(1), *p.serviceRate)).Div(thousand).Mul(price).Mul(pue)
	arith = fmt.Sprintf("%s W idle (%s) x %s h / 1000 x %s %s x %s PUE; the %s W above idle while busy are in the cost per request",
		DisplayInputDecimal(idle), src, hours, price, unit, pue, DisplayInputDecimal(watts.Sub(idle)))
	u.Text = fmt.Sprintf("power priced by use: %s W idle (%s) for every powered hour, and %s W (measured) for the busy time, %s s a request at the box's measured %s req/s (%s W x %s s / 3,600,000 x %s x %s PUE = %s a request)",
		DisplayInputDecimal(idle), src, DisplayInputDecimal(watts), DisplayInput(1 / *p.serviceRate), fmtNum(*p.serviceRate),
		DisplayInputDecimal(watts.Sub(idle)), DisplayInput(1 / *p.serviceRate), price, pue, DisplayInputDecimal(RoundPerRequest(energy)))
	return line, arith, energy
}
