package planner

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// Cost per million tokens (docs/method.md, "Cost per million tokens"):
// every option's monthly cost over the tokens of its successful
// in-objective requests, the frontier-comparable figure of the box as
// the public frontier computes it, and the steps from that figure to the
// all-in one.

// TokenPrices is an option's cost per million tokens in one scenario, at
// the objective: its monthly all-in cost over the tokens of the month's
// successful in-objective requests. Input counts the input (prompt)
// tokens only, Output the output tokens only, each carrying the whole
// cost; Blended counts both, in the workload's mix of InputTokens to
// OutputTokens a request.
type TokenPrices struct {
	Input   Money `json:"input"`
	Output  Money `json:"output"`
	Blended Money `json:"blended"`
	// Tokens per request counted, the same for every option (those priced
	// for the quotes: the contract's workload, or measured at the ceiling).
	InputTokens  float64 `json:"input_tokens"`
	OutputTokens float64 `json:"output_tokens"`
}

// PerMTokens is the cost per million tokens of a monthly cost spread over
// requests successful in-objective requests of inTok input and outTok
// output tokens each; nil without requests or tokens.
func PerMTokens(monthly decimal.Decimal, requests int64, inTok, outTok float64) *TokenPrices {
	if requests <= 0 || !(inTok > 0) || !(outTok > 0) {
		return nil
	}
	return &TokenPrices{
		Input:        NewMoney(perMTokensOf(monthly, requests, inTok)),
		Output:       NewMoney(perMTokensOf(monthly, requests, outTok)),
		Blended:      NewMoney(perMTokensOf(monthly, requests, inTok+outTok)),
		InputTokens:  inTok,
		OutputTokens: outTok,
	}
}

// perMTokensOf is an amount over requests x tokens, per million tokens: the
// one division every cost per million tokens of a scenario takes, so the
// steps of a TokenGap and the option's Blended agree to the last digit.
func perMTokensOf(amount decimal.Decimal, requests int64, tokens float64) decimal.Decimal {
	return amount.Mul(million).Div(decimal.NewFromInt(requests).Mul(decimal.NewFromFloat(tokens)))
}

// FrontierPerM is the frontier-comparable cost per million tokens, as the
// public frontier (InferenceX) computes it: a GPU-hour price over the
// tokens one GPU serves in an hour at capacity, in millions, at 100 %
// utilisation and with no labour: price / (tok/s/GPU x 3,600 / 1e6).
// $1.30 a GPU-hour at 1,560 tok/s/GPU is 1.30 / 5.616 = $0.2315. Nil when
// the throughput is not positive.
func FrontierPerM(gpuHourPrice decimal.Decimal, tokPerSecPerGPU float64) *Money {
	if !(tokPerSecPerGPU > 0) {
		return nil
	}
	m := NewMoney(gpuHourPrice.Mul(million).Div(decimal.NewFromFloat(tokPerSecPerGPU).Mul(decimal.NewFromInt(3600))))
	return &m
}

// Frontier is the box's frontier-comparable cost per million tokens and,
// per scenario, the steps from it to the all-in self-hosted figure.
type Frontier struct {
	// GPUs is the GPUs per box and GPUsSource where that came from.
	GPUs       float64 `json:"gpus"`
	GPUsSource string  `json:"gpus_source"`
	// GPUHourPrice is the price of one GPU-hour: typed (PriceTyped, with
	// its source and date in PriceSource) or the box's equipment and
	// power a month over 730 h and its GPUs.
	GPUHourPrice *Money `json:"gpu_hour_price"`
	PriceTyped   bool   `json:"price_typed"`
	PriceSource  string `json:"price_source"`
	// BoxHourCost is the box's equipment and power a month (the lines
	// the GPU-hour price stands for), over HoursPerMonth.
	EquipmentPower Money `json:"equipment_power"`
	// TokensPerRequest is input plus output tokens a request;
	// TokensPerSecondPerGPU the successful tokens a second one GPU serves
	// at the ceiling (its successful request rate x the tokens, over the
	// GPUs).
	TokensPerRequest      float64  `json:"tokens_per_request"`
	TokensPerSecondPerGPU *float64 `json:"tokens_per_second_per_gpu"`
	// PerMTokens is the frontier-comparable figure; Basis its arithmetic.
	PerMTokens *Money `json:"per_m_tokens"`
	Basis      string `json:"basis"`
	// Reason says why there is no figure ("" when there is one); Notes
	// qualify it (a capacity that is an upper bound).
	Reason string     `json:"reason,omitempty"`
	Notes  []string   `json:"notes"`
	Gaps   []TokenGap `json:"gaps"`
}

// TokenGap is, for one scenario, the frontier-comparable figure taken to
// the all-in self-hosted cost per million blended tokens in steps whose
// amounts sum exactly to AllIn - Frontier: each step is the difference of
// two running figures, the last of which is the all-in figure itself.
type TokenGap struct {
	Scenario string    `json:"scenario"`
	Frontier Money     `json:"frontier"`
	AllIn    Money     `json:"all_in"`
	Gap      Money     `json:"gap"`
	Steps    []GapStep `json:"steps"`
	// Text is the decomposition in one line, by the display rule.
	Text string `json:"text"`
}

// GapStep is one step of a TokenGap: what it adds to the cost per million
// blended tokens (negative when it takes away) and how.
type GapStep struct {
	// Key is "out_of_objective", "utilisation", "equipment_power" (only
	// with a typed GPU-hour price), "labour", "facilities_other" or
	// "failures".
	Key    string `json:"key"`
	Label  string `json:"label"`
	Amount Money  `json:"amount"`
	Basis  string `json:"basis"`
}

// devicePattern reads the GPU count of a device written "1x H100 SXM
// 80GB", "8 x H200" or "H100 x4".
var devicePattern = regexp.MustCompile(`(?i)^\s*(\d+)\s*[x×]\s*\S|[x×]\s*(\d+)\s*$`)

// GPUsFromDevice is the GPU count a contract's device names, and whether
// it names one.
func GPUsFromDevice(device string) (int, bool) {
	m := devicePattern.FindStringSubmatch(device)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1] + m[2])
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// BuildFrontier computes the box's frontier-comparable cost per million
// tokens and its gap to the all-in figure in every scenario
// (docs/method.md, "Cost per million tokens"). self is the computed
// self-hosted cost, capacity the capacity per box, scenarios the costed
// scenarios (their self-hosted option carries the all-in figure).
func BuildFrontier(costs SelfHostedCosts, device string, self SelfHostedCost, capacity Capacity, scenarios []ScenarioResult, inTok, outTok float64, conv *converter) Frontier {
	f := Frontier{Notes: []string{}, Gaps: []TokenGap{}}
	switch n, ok := GPUsFromDevice(device); {
	case costs.GPUsPerBox != nil:
		f.GPUs, f.GPUsSource = costs.GPUsPerBox.Amount.InexactFloat64(), "typed"
	case ok:
		f.GPUs, f.GPUsSource = float64(n), fmt.Sprintf("from the contract's device %q", device)
	default:
		f.GPUs, f.GPUsSource = 1, "assumed 1: type the GPUs per box in the costs"
	}
	line := map[string]decimal.Decimal{}
	for _, l := range self.Lines {
		line[l.Category] = line[l.Category].Add(l.Monthly.Exact)
	}
	ep := line["equipment"].Add(line["power"])
	// With power by use the power line holds the idle watts only; a
	// GPU-hour at 100 % utilisation draws the measured watts every hour
	// (docs/method.md, "Power by use").
	byUse := self.Power.ByUse && self.Power.EnergyPerRequest.Exact.IsPositive()
	epLines := ep
	if byUse {
		ep = line["equipment"].Add(self.Power.AlwaysBusy.Exact)
	}
	f.EquipmentPower = NewMoney(ep)
	gpus := decimal.NewFromFloat(f.GPUs)
	hours := decimal.NewFromInt(HoursPerMonth)
	if p := costs.GPUHourPrice; p != nil {
		u, ok := conv.use(figureCurrency(p, ""), "self_hosted.gpu_hour_price")
		if ok {
			price := NewMoney(u.of(p.Amount))
			f.GPUHourPrice, f.PriceTyped = &price, true
			f.PriceSource = strings.TrimSpace(fmt.Sprintf("typed: %s, %s", orNone(p.Source), orNone(p.EvidenceDate)))
		}
	}
	if f.GPUHourPrice == nil {
		price := NewMoney(ep.Div(hours).Div(gpus))
		f.GPUHourPrice = &price
		f.PriceSource = fmt.Sprintf("the box's equipment and power, %s a month / %d h / %s %s", DisplayMoney(ep), HoursPerMonth, fmtNum(f.GPUs), gpuWord(f.GPUs))
	}
	f.TokensPerRequest = inTok + outTok
	switch {
	case capacity.CeilingRate == nil || capacity.PerBoxRate == nil:
		f.Reason = "no capacity per box to count the tokens it serves"
		if capacity.Reason != "" {
			f.Reason += " (" + capacity.Reason + ")"
		}
		return f
	case !(inTok > 0) || !(outTok > 0):
		f.Reason = "no tokens per request to count"
		return f
	case ep.IsZero() && !f.PriceTyped:
		f.Reason = "no GPU-hour price: type the equipment and power costs, or a GPU-hour price"
		return f
	}
	if capacity.UpperBound {
		f.Notes = append(f.Notes, "the capacity per box is an upper bound ("+capacity.UpperBoundNote+"), so the out-of-objective step may be understated")
	}
	rate, inObj := *capacity.CeilingRate, *capacity.PerBoxRate
	tps := rate * f.TokensPerRequest / f.GPUs
	f.TokensPerSecondPerGPU = F(tps)
	f.PerMTokens = FrontierPerM(f.GPUHourPrice.Exact, tps)
	if f.PerMTokens == nil {
		f.Reason = "the ceiling serves no tokens"
		return f
	}
	f.Basis = fmt.Sprintf("%s per GPU-hour / (%s tok/s/GPU x 3,600 / 1e6) = %s per million tokens (%s successful req/s x %s tokens / %s %s)",
		DisplayMoney(f.GPUHourPrice.Exact), DisplayNumber(tps, 1), DisplayMoney(f.PerMTokens.Exact), DisplayInput(rate), DisplayInput(f.TokensPerRequest), fmtNum(f.GPUs), gpuWord(f.GPUs))
	inObjPerM := FrontierPerM(f.GPUHourPrice.Exact, inObj*f.TokensPerRequest/f.GPUs)
	if inObjPerM == nil {
		f.Reason = "no request at the ceiling met the objective"
		return f
	}
	// What the frontier's GPU-hour price stands for, a box a month: the
	// typed price x GPUs x 730 h, else the box's own equipment and power
	// (not its quotient again, so the steps stay exact).
	basis := ep
	if f.PriceTyped {
		basis = f.GPUHourPrice.Exact.Mul(gpus).Mul(hours)
	}
	labour, downtime := line["labour"], line["downtime"]
	other := self.FixedPerBox.Exact.Sub(epLines).Sub(labour).Sub(downtime)
	// The energy above idle a request, when power is priced by use: in
	// V_local, moved to its own step.
	energy := decimal.Zero
	if byUse {
		energy = self.Power.EnergyPerRequest.Exact
	}
	for _, s := range scenarios {
		var o *OptionCost
		for i := range s.Options {
			if s.Options[i].Kind == "self-hosted" {
				o = &s.Options[i]
			}
		}
		if o == nil || o.SuccessfulRequests <= 0 {
			continue
		}
		d := o.SuccessfulRequests
		k := decimal.NewFromInt(int64(o.Boxes))
		t := f.TokensPerRequest
		run := func(monthly decimal.Decimal) decimal.Decimal { return perMTokensOf(monthly, d, t) }
		g := TokenGap{Scenario: s.Scenario.Name, Frontier: *f.PerMTokens}
		prev := f.PerMTokens.Exact
		step := func(key, label string, next decimal.Decimal, basis string) {
			g.Steps = append(g.Steps, GapStep{Key: key, Label: label, Amount: NewMoney(next.Sub(prev)), Basis: basis})
			prev = next
		}
		step("out_of_objective", "out-of-objective requests", inObjPerM.Exact,
			fmt.Sprintf("the same GPU-hour over the in-objective requests only: %s of %s successful req/s", DisplayInput(inObj), DisplayInput(rate)))
		step("utilisation", "utilisation (demand below capacity)", run(basis.Mul(k)),
			fmt.Sprintf("%s %s paid for %s in-objective requests a month, where at capacity they serve %s", fmtNum(float64(o.Boxes)), plural(o.Boxes, "box", "boxes"), DisplayCount(d),
				DisplayCount(RoundRequests(decimal.NewFromFloat(inObj*3600*HoursPerMonth).Mul(k), Served))))
		cum := basis.Mul(k)
		if f.PriceTyped {
			cum = ep.Mul(k)
			step("equipment_power", "the box's own equipment and power against the typed GPU-hour price", run(cum),
				fmt.Sprintf("%s a month per box against %s at the typed price", DisplayMoney(ep), DisplayMoney(basis)))
		}
		if byUse {
			// Power by use: the box's power a month at the measured watts
			// becomes idle watts for every hour and the watts above idle
			// for the busy time.
			cum = cum.Sub(ep.Sub(epLines).Mul(k)).Add(energy.Mul(decimal.NewFromInt(d)))
			step("power_by_use", "power by use (idle watts while idle)", run(cum),
				fmt.Sprintf("%s a month per box at the measured watts against %s idle and %s a request busy", DisplayMoney(self.Power.AlwaysBusy.Exact), DisplayMoney(line["power"]), DisplayInputDecimal(energy)))
		}
		cum = cum.Add(labour.Mul(k))
		step("labour", "labour", run(cum), fmt.Sprintf("operator labour, %s a month per box", DisplayMoney(labour)))
		cum = cum.Add(other.Mul(k)).Add(self.PerRequest.Exact.Sub(energy).Mul(decimal.NewFromInt(d)))
		step("facilities_other", "facilities and other costs", run(cum),
			fmt.Sprintf("facilities, hosting, support, software, monitoring and backup, %s a month per box, and %s a request", DisplayMoney(other), DisplayInputDecimal(self.PerRequest.Exact.Sub(energy))))
		allIn := run(o.MonthlyCost.Exact)
		step("failures", "failures (expected downtime)", allIn, fmt.Sprintf("the expected downtime allowance, %s a month per box", DisplayMoney(downtime)))
		g.AllIn = NewMoney(allIn)
		g.Gap = NewMoney(allIn.Sub(f.PerMTokens.Exact))
		parts := make([]string, len(g.Steps))
		for i, st := range g.Steps {
			parts[i] = signedMoney(st.Amount.Exact) + " " + st.Label
		}
		g.Text = fmt.Sprintf("from %s frontier-comparable to %s all-in: %s", DisplayMoney(g.Frontier.Exact), DisplayMoney(allIn), strings.Join(parts, ", "))
		f.Gaps = append(f.Gaps, g)
	}
	return f
}

func gpuWord(n float64) string {
	if n == 1 {
		return "GPU"
	}
	return "GPUs"
}

// signedMoney writes an amount with its sign: "+1.23", "-0.0450".
func signedMoney(d decimal.Decimal) string {
	if d.IsNegative() {
		return "-" + DisplayMoney(d.Neg())
	}
	return "+" + DisplayMoney(d)
}

// tokenCosts gives every option of every scenario its cost per million
// tokens, on the tokens per request priced for the quotes.
func tokenCosts(ss []ScenarioResult, inTok, outTok float64) {
	for i := range ss {
		for j := range ss[i].Options {
			o := &ss[i].Options[j]
			o.PerMTokens = PerMTokens(o.MonthlyCost.Exact, o.SuccessfulRequests, inTok, outTok)
		}
	}
}

// Shown is the gap the page leads with: the expected scenario's, else
// the first scenario's; nil when no scenario has one.
func (f Frontier) Shown() *TokenGap {
	for i := range f.Gaps {
		if f.Gaps[i].Scenario == "expected" {
			return &f.Gaps[i]
		}
	}
	if len(f.Gaps) > 0 {
		return &f.Gaps[0]
	}
	return nil
}
