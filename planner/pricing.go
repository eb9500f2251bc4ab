package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// PriceTier is one volume band of a quote's token prices. Tokens of one
// kind beyond FromMTokens million a month, up to the next band's start, are
// priced at the band's prices; the quote's own prices cover the first band,
// from zero. Bands are graduated: each token is priced by the band it falls
// in, and input and output tokens each walk the bands by their own monthly
// volume. A band's price left nil keeps the band before it's.
type PriceTier struct {
	FromMTokens      decimal.Decimal `json:"from_m_tokens"`
	InputPerMTokens  *Figure         `json:"input_per_m_tokens"`
	OutputPerMTokens *Figure         `json:"output_per_m_tokens"`
}

// CostSegment is one straight piece of a monthly cost against monthly
// demand: for From <= demand < To, cost = Intercept + Slope x demand. To is
// nil for the last, unbounded piece.
type CostSegment struct {
	From      decimal.Decimal  `json:"from"`
	To        *decimal.Decimal `json:"to"`
	Intercept Money            `json:"intercept"`
	Slope     Money            `json:"slope"`
}

// at is the segment's cost at demand d.
func (s CostSegment) at(d decimal.Decimal) decimal.Decimal {
	return s.Intercept.Exact.Add(s.Slope.Exact.Mul(d))
}

// segmentAt finds the piece covering demand d (the last when beyond).
func segmentAt(segs []CostSegment, d decimal.Decimal) CostSegment {
	for _, s := range segs {
		if s.To == nil || d.LessThan(*s.To) {
			return s
		}
	}
	return segs[len(segs)-1]
}

// segments returns the quote's cost pieces; a QuoteCost built by hand with
// only Fixed and PerRequest is one straight line.
func (q QuoteCost) segments() []CostSegment {
	if len(q.Segments) > 0 {
		return q.Segments
	}
	return []CostSegment{{Intercept: q.Fixed, Slope: q.PerRequest}}
}

// MonthlyAt is the quote's monthly cost at a monthly demand, on the
// report's tax basis, in the report's currency.
func (q QuoteCost) MonthlyAt(requests int64) decimal.Decimal {
	d := decimal.NewFromInt(requests)
	return segmentAt(q.segments(), d).at(d)
}

// Linear reports whether the quote's cost is one straight line in demand
// (no volume tiers or minimum commitment bend it).
func (q QuoteCost) Linear() bool { return len(q.segments()) == 1 }

// monthlyOn is the monthly cost at demand d on a tax basis, in the quote's
// own currency.
func (q QuoteCost) monthlyOriginal(d decimal.Decimal, basis string) decimal.Decimal {
	if len(q.pre) == 0 {
		return segmentAt(q.segments(), d).at(d)
	}
	return segmentAt(q.pre, d).at(d).Mul(q.tax.factor(basis)).Add(q.untaxed)
}

// monthlyOn is the monthly cost at demand d on a tax basis, in the
// report's currency.
func (q QuoteCost) monthlyOn(requests int64, basis string) decimal.Decimal {
	d := decimal.NewFromInt(requests)
	if len(q.pre) == 0 || basis == q.taxBasis {
		return segmentAt(q.segments(), d).at(d)
	}
	return q.rate.of(q.monthlyOriginal(d, basis))
}

// originalAt is the monthly cost at a demand in the quote's currency, with
// the rate, when that is not the report's; nil otherwise.
func (q QuoteCost) originalAt(requests int64) *Converted {
	if q.rate == nil {
		return nil
	}
	return q.rate.original(q.monthlyOriginal(decimal.NewFromInt(requests), q.taxBasis))
}

// band is where a token price starts, in tokens a month, and the price per
// million tokens from there.
type band struct {
	from  decimal.Decimal
	price decimal.Decimal
}

// perMillion divides by a million exactly (a shift of the decimal point,
// where a division would round at DivisionPrecision places).
func perMillion(d decimal.Decimal) decimal.Decimal { return d.Shift(-6) }

// bandIndex is the band a month's tokens end in.
func bandIndex(bs []band, tokens decimal.Decimal) int {
	k := 0
	for i, b := range bs {
		if !tokens.LessThan(b.from) {
			k = i
		}
	}
	return k
}

// bandOffset is the constant of the token charge within band k, in token
// x price units (divide by a million for money): within it the charge is
// (tokens x price_k + offset) / 1M, offset = sum over the bands before of
// the next band's start x (its price - the next price). It is exact: band
// starts are whole tokens and prices typed decimals, so a piece's
// intercept never carries the rounding of the demand where it starts
// (docs/method.md, "Volume bands").
func bandOffset(bs []band, k int) decimal.Decimal {
	off := decimal.Zero
	for m := 0; m < k; m++ {
		off = off.Add(bs[m+1].from.Mul(bs[m].price.Sub(bs[m+1].price)))
	}
	return off
}

// quoteBands lists the bands of one token kind: the quote's price from
// zero, then each tier's (or the one before when the tier leaves it nil).
func quoteBands(base *Figure, tiers []PriceTier, pick func(PriceTier) *Figure) []band {
	p, _ := amount(base)
	bs := []band{{decimal.Zero, p}}
	for _, t := range tiers {
		if f := pick(t); f != nil {
			p = f.Amount
		}
		bs = append(bs, band{t.FromMTokens.Mul(million), p})
	}
	return bs
}

// QuoteMonthly prices one API quote in its own currency, counting
// non-recoverable tax: the fixed monthly charges, and the price per request
// from the tokens per request, inflated by the expected retry or failure
// rate. See quoteMonthly for the pricing model.
func QuoteMonthly(q Quote, inTokens, outTokens float64, basis string) QuoteCost {
	return quoteMonthly(q, inTokens, outTokens, basis, nil, TaxNet)
}

// quoteMonthly prices a quote and converts it into the report's currency.
// Per request, with m the token multiplier, h the cache-hit share and
// retry the retry rate:
//
//	attempts      = 1 / (1 - retry)  (a share retry of attempts fails and is retried until it succeeds)
//	input tokens  = contract input x m x attempts, of which h cached
//	output tokens = (contract output x m + reasoning) x attempts
//	usage(D)      = (1 - batch discount x batch share) x token charges(D) + D x per-request price x attempts
//	monthly(D)    = (charges + max(minimum, usage(D))) x (1 + tax) + integration labour
//
// Token charges walk the volume bands by the month's volume of each kind;
// cached input is priced flat at the cached price. The price per request
// of every piece (V_api and the slopes beyond the first band), in the
// report's currency on its tax basis, is rounded by RoundPerRequest
// (docs/method.md, "Rounding").
func quoteMonthly(q Quote, inTokens, outTokens float64, tokenBasis string, conv *converter, taxBasis string) QuoteCost {
	cur := strings.ToUpper(q.Currency)
	if cur == "" && conv != nil {
		cur = conv.report
	}
	qc := QuoteCost{Name: q.Name, Provider: q.Provider, Model: q.Model, InputTokens: inTokens, OutputTokens: outTokens, TokenBasis: tokenBasis,
		Currency: cur, tax: q.Tax, taxBasis: taxBasis}
	rate, ok := conv.use(q.Currency, quoteField(q, "currency"))
	if !ok {
		qc.Excluded = fmt.Sprintf("no exchange rate for %s into %s: the quote is not compared", cur, conv.report)
		qc.Notes = append(qc.Notes, qc.Excluded)
	}
	qc.rate = rate

	// Monthly charges.
	taxable, untaxed, fixed, fixedOrig := decimal.Zero, decimal.Zero, decimal.Zero, decimal.Zero
	for _, fd := range QuoteFields {
		if !fd.Charge {
			continue
		}
		c := struct {
			cat, label string
			f          *Figure
		}{fd.Name, fd.Label, *fd.Figure(&q)}
		v, typed := amount(c.f)
		l := CostLine{Category: c.cat, Label: c.label, Typed: typed, Basis: "monthly", Evidence: ev(quoteField(q, c.cat), c.f)}
		if !typed {
			l.Basis = "not charged"
		}
		tax := q.Tax
		if c.cat == "integration_labour" {
			tax = nil // the buyer's own work: no invoice, no tax
			untaxed = untaxed.Add(v)
		} else {
			taxable = taxable.Add(v)
		}
		counted, lt := tax.apply(rate.of(v), taxBasis)
		orig, _ := tax.apply(v, taxBasis)
		l.Tax, l.Original = lt, rate.original(orig)
		l.Monthly = NewMoney(counted)
		g, n := grossNet(counted, lt)
		l.Gross, l.Net = NewMoney(g), NewMoney(n)
		if typed {
			l.Basis += taxText(lt) + rate.text(conv.reportCode())
		}
		qc.Lines = append(qc.Lines, l)
		fixed, fixedOrig = fixed.Add(counted), fixedOrig.Add(orig)
	}
	qc.Fixed = NewMoney(fixed)
	qc.untaxed = untaxed

	// Tokens per request.
	one := decimal.NewFromInt(1)
	mult := orDefault(q.TokenMultiplier, 1)
	retry, _ := amount(q.RetryRate)
	// A share r of attempts fails and is retried until it succeeds: a
	// success takes 1 / (1 - r) attempts, each paid (docs/method.md,
	// "Retries").
	rho := Attempts(retry)
	hit, _ := amount(q.CacheHitShare)
	reasoning, _ := amount(q.ReasoningTokens)
	inT := decimal.NewFromFloat(inTokens).Mul(mult).Mul(rho)
	uncached, cached := inT.Mul(one.Sub(hit)), inT.Mul(hit)
	outT := decimal.NewFromFloat(outTokens).Mul(mult).Add(reasoning).Mul(rho)
	qc.PricedInputTokens, qc.PricedOutputTokens = inT, outT
	disc, _ := amount(q.BatchDiscount)
	share, _ := amount(q.BatchShare)
	batch := one.Sub(disc.Mul(share))
	cachedPrice := orDefaultFig(q.CachedInputPerMTokens, q.InputPerMTokens)
	perReq, _ := amount(q.PerRequestPrice)
	perReq = perReq.Mul(rho)

	inBands := quoteBands(q.InputPerMTokens, q.Tiers, func(t PriceTier) *Figure { return t.InputPerMTokens })
	outBands := quoteBands(q.OutputPerMTokens, q.Tiers, func(t PriceTier) *Figure { return t.OutputPerMTokens })
	// Demand where a band starts, for each kind.
	points := []decimal.Decimal{decimal.Zero}
	for _, kind := range []struct {
		bs  []band
		per decimal.Decimal
	}{{inBands, uncached}, {outBands, outT}} {
		if !kind.per.IsPositive() {
			continue
		}
		for _, b := range kind.bs[1:] {
			points = append(points, b.from.Div(kind.per))
		}
	}
	slices.SortFunc(points, func(a, b decimal.Decimal) int { return a.Cmp(b) })
	points = slices.CompactFunc(points, func(a, b decimal.Decimal) bool { return a.Equal(b) })
	var pre []CostSegment
	for i, from := range points {
		var to *decimal.Decimal
		probe := from.Add(one)
		if i+1 < len(points) {
			t := points[i+1]
			to = &t
			probe = from.Add(t).Div(decimal.NewFromInt(2))
		}
		// The piece's slope and intercept from the bands it lies in, not
		// from the usage at its start: a start such as 40 M tokens / 231
		// tokens a request is a rational the decimal cuts at 16 places, and
		// usage(start) - slope x start would carry that cut into every cost
		// on the piece (a cost of exactly x.xx5 then rounding down).
		kIn, kOut := bandIndex(inBands, probe.Mul(uncached)), bandIndex(outBands, probe.Mul(outT))
		slope := perMillion(batch.Mul(inBands[kIn].price.Mul(uncached).Add(cachedPrice.Mul(cached)).
			Add(outBands[kOut].price.Mul(outT)))).Add(perReq)
		icpt := perMillion(batch.Mul(bandOffset(inBands, kIn).Add(bandOffset(outBands, kOut))))
		pre = append(pre, CostSegment{From: from, To: to, Slope: NewMoney(slope), Intercept: NewMoney(icpt)})
	}
	if minimum, ok := amount(q.MinimumMonthly); ok && minimum.IsPositive() {
		pre = applyMinimum(pre, minimum)
	}
	for i := range pre {
		pre[i].Intercept = NewMoney(pre[i].Intercept.Exact.Add(taxable))
	}
	qc.pre = pre
	f := q.Tax.factor(taxBasis)
	for _, s := range pre {
		// The piece's price per request is rounded (RoundPerRequest); a
		// piece whose slope the rounding moved keeps its exact cost where
		// it starts (the first piece starts at zero, so its intercept
		// stays the charges). A slope the rounding leaves alone keeps the
		// intercept from the bands, exact.
		slope, icpt := rate.of(s.Slope.Exact.Mul(f)), rate.of(s.Intercept.Exact.Mul(f).Add(untaxed))
		if r := RoundPerRequest(slope); !r.Equal(slope) {
			icpt, slope = icpt.Add(slope.Sub(r).Mul(s.From)), r
		}
		qc.Segments = append(qc.Segments, CostSegment{From: s.From, To: s.To, Intercept: NewMoney(icpt), Slope: NewMoney(slope)})
	}

	// V_api: the price of a request in the first band.
	first := perMillion(batch.Mul(inBands[0].price.Mul(uncached).Add(cachedPrice.Mul(cached)).Add(outBands[0].price.Mul(outT)))).Add(perReq)
	qc.PerRequest = NewMoney(RoundPerRequest(rate.of(first.Mul(f))))
	qc.FixedOriginal = rate.original(fixedOrig)
	qc.PerRequestOriginal = rate.original(RoundPerRequest(first.Mul(f)))
	qc.PerRequestBasis = perRequestBasis(q, decimal.NewFromFloat(inTokens), decimal.NewFromFloat(outTokens), mult, retry, hit, reasoning, disc, share, perReq, f, rate, conv.reportCode())
	if !isFigure(q.InputPerMTokens) || !isFigure(q.OutputPerMTokens) {
		qc.Notes = append(qc.Notes, "token prices not typed: counted as zero")
	}
	if len(q.Tiers) > 0 {
		qc.Notes = append(qc.Notes, fmt.Sprintf("volume tiers: the price per request falls as monthly volume passes each band (%d pieces)", len(qc.Segments)))
	}
	if q.MinimumMonthly != nil && q.MinimumMonthly.Amount.IsPositive() {
		qc.Notes = append(qc.Notes, fmt.Sprintf("minimum monthly commitment %s: usage below it is billed as the minimum", DisplayMoney(q.MinimumMonthly.Amount)))
	}
	return qc
}

// applyMinimum bills usage below minimum as the minimum: a flat piece from
// zero to the demand where usage reaches it, then usage as it was.
func applyMinimum(segs []CostSegment, minimum decimal.Decimal) []CostSegment {
	for i, s := range segs {
		reaches := s.Slope.Exact.IsPositive() && (s.To == nil || s.at(*s.To).GreaterThan(minimum))
		if !reaches {
			continue
		}
		d := minimum.Sub(s.Intercept.Exact).Div(s.Slope.Exact)
		if d.LessThan(s.From) {
			d = s.From
		}
		out := []CostSegment{{From: decimal.Zero, To: &d, Intercept: NewMoney(minimum), Slope: NewMoney(decimal.Zero)}}
		rest := s
		rest.From = d
		out = append(out, rest)
		return append(out, segs[i+1:]...)
	}
	return []CostSegment{{From: decimal.Zero, Intercept: NewMoney(minimum), Slope: NewMoney(decimal.Zero)}}
}

func perRequestBasis(q Quote, in, out, mult, retry, hit, reasoning, disc, share, perReq, taxF decimal.Decimal, rate *rateUse, report string) string {
	ip, _ := amount(q.InputPerMTokens)
	op, _ := amount(q.OutputPerMTokens)
	plain := q.TokenMultiplier == nil && q.CacheHitShare == nil && q.ReasoningTokens == nil && q.BatchDiscount == nil &&
		q.PerRequestPrice == nil && q.Tax == nil && rate == nil
	// Token counts are means (measured ones carry a float's digits):
	// written as formula terms (DisplayInputDecimal).
	inShown, outShown := DisplayInputDecimal(in), DisplayInputDecimal(out)
	if plain {
		return fmt.Sprintf("(%s input tokens x %s + %s output tokens x %s) / 1M / (1 - %s retried)%s", inShown, ip, outShown, op, retry, roundedNote(retry))
	}
	var b strings.Builder
	inText := inShown
	if q.TokenMultiplier != nil {
		inText = fmt.Sprintf("%s x %s tokenizer", inShown, mult)
	}
	if q.CacheHitShare != nil {
		cp := orDefaultFig(q.CachedInputPerMTokens, q.InputPerMTokens)
		fmt.Fprintf(&b, "(%s input tokens x (%s uncached x %s + %s cached x %s)", inText, decimal.NewFromInt(1).Sub(hit), ip, hit, cp)
	} else {
		fmt.Fprintf(&b, "(%s input tokens x %s", inText, ip)
	}
	outText := outShown
	if q.TokenMultiplier != nil {
		outText = fmt.Sprintf("%s x %s tokenizer", outShown, mult)
	}
	if q.ReasoningTokens != nil {
		outText = fmt.Sprintf("(%s + %s reasoning)", outText, reasoning)
	}
	fmt.Fprintf(&b, " + %s output tokens x %s) / 1M", outText, op)
	if q.BatchDiscount != nil {
		fmt.Fprintf(&b, " x (1 - %s batch discount x %s eligible)", disc, share)
	}
	fmt.Fprintf(&b, " / (1 - %s retried)", retry)
	if q.PerRequestPrice != nil {
		fmt.Fprintf(&b, " + %s per request", perReq)
	}
	if q.Tax != nil && q.Tax.Rate != nil {
		fmt.Fprintf(&b, " x %s tax factor", taxF)
	}
	b.WriteString(rate.text(report))
	b.WriteString(roundedNote(retry))
	return b.String()
}

// roundedNote says the per-request price was rounded, where retries made
// it a quotient.
func roundedNote(retry decimal.Decimal) string {
	if retry.IsZero() {
		return ""
	}
	return fmt.Sprintf(", to %d significant figures", PerRequestSignificant)
}

// Attempts is what one success costs in attempts when a share r of
// attempts fails and is retried until it succeeds: 1 / (1 - r), not
// 1 + r (docs/method.md, "Retries"). r is below 1 (the field's bound);
// the quotient carries 16 decimals, and the price per request it makes is
// rounded by RoundPerRequest.
func Attempts(r decimal.Decimal) decimal.Decimal {
	one := decimal.NewFromInt(1)
	if r.IsZero() || !r.LessThan(one) {
		return one
	}
	return one.Div(one.Sub(r))
}

// orDefaultFig is f's amount, else def's (zero when neither is typed).
func orDefaultFig(f, def *Figure) decimal.Decimal {
	if f != nil {
		return f.Amount
	}
	v, _ := amount(def)
	return v
}

func isFigure(f *Figure) bool { return f != nil }

// reportCode is the report's currency, "" without a converter.
func (c *converter) reportCode() string {
	if c == nil {
		return ""
	}
	return c.report
}

func (q Quote) validatePricing(es *FieldErrors, p string) {
	checkCurrency(es, p+".currency", q.Currency)
	// Amounts and bounds of each figure: the registry (validateFields).
	if q.BatchDiscount != nil && q.BatchShare == nil {
		es.add(p+".batch_share", "a batch discount needs the share of traffic eligible for it")
	}
	if q.CacheHitShare != nil && q.CacheHitShare.Amount.IsPositive() && q.CachedInputPerMTokens == nil {
		es.add(p+".cached_input_per_m_tokens", "a cache-hit share needs the cached input price")
	}
	prev := decimal.Zero
	for i, t := range q.Tiers {
		tp := fmt.Sprintf("%s.tiers[%d]", p, i)
		if !t.FromMTokens.GreaterThan(prev) {
			es.add(tp+".from_m_tokens", fmt.Sprintf("bands start above 0 and above the band before (%s M tokens), got %s", prev, t.FromMTokens))
		}
		prev = t.FromMTokens
		if t.InputPerMTokens == nil && t.OutputPerMTokens == nil {
			es.add(tp, "a band needs an input or an output price")
		}
		checkFigure(es, tp+".input_per_m_tokens", t.InputPerMTokens)
		checkFigure(es, tp+".output_per_m_tokens", t.OutputPerMTokens)
	}
	validateTax(es, p+".tax", q.Tax)
}
