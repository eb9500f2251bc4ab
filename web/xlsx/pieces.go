package xlsx

import (
	"fmt"
	"math"
	"slices"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// never is the demand that stands for "no such point" in the pieces table
// (an unbounded piece, a band a token kind never reaches).
const never = 9e99

// neverF is never in a formula.
const neverF = "9E+99"

// quoteCalc mirrors quoteAt in floats, for the cached values of the pieces
// table.
type quoteCalc struct {
	unc, out, cachedCost, batch, fee    float64
	minimum, taxed, untaxed, taxF, rate float64
	from, stepIn, stepOut               []float64
}

func newQuoteCalc(q planner.Quote, qc planner.QuoteCost, basis string) quoteCalc {
	f := func(fig *planner.Figure) float64 {
		if fig == nil {
			return 0
		}
		return fig.Amount.InexactFloat64()
	}
	hit := f(q.CacheHitShare)
	in := qc.PricedInputTokens.InexactFloat64()
	cached := f(q.CachedInputPerMTokens)
	if q.CachedInputPerMTokens == nil {
		cached = f(q.InputPerMTokens)
	}
	c := quoteCalc{unc: in * (1 - hit), out: qc.PricedOutputTokens.InexactFloat64(), cachedCost: in * hit * cached / 1e6,
		batch: 1 - f(q.BatchDiscount)*f(q.BatchShare), fee: f(q.PerRequestPrice) / (1 - f(q.RetryRate)), minimum: f(q.MinimumMonthly),
		taxF: 1, rate: 1}
	for _, fd := range planner.QuoteFields {
		if fd.Charge && fd.Name == "integration_labour" {
			c.untaxed += f(*fd.Figure(&q))
		} else if fd.Charge {
			c.taxed += f(*fd.Figure(&q))
		}
	}
	if t := q.Tax; t != nil && t.Rate != nil && (!t.Recoverable || basis == planner.TaxGross) {
		c.taxF += f(t.Rate)
	}
	if o := qc.PerRequestOriginal; o != nil {
		c.rate = o.Rate.InexactFloat64()
	}
	pin, pout := f(q.InputPerMTokens), f(q.OutputPerMTokens)
	c.from, c.stepIn, c.stepOut = []float64{0}, []float64{pin}, []float64{pout}
	for _, t := range q.Tiers {
		nin, nout := pin, pout
		if t.InputPerMTokens != nil {
			nin = f(t.InputPerMTokens)
		}
		if t.OutputPerMTokens != nil {
			nout = f(t.OutputPerMTokens)
		}
		c.from = append(c.from, t.FromMTokens.InexactFloat64())
		c.stepIn, c.stepOut = append(c.stepIn, nin-pin), append(c.stepOut, nout-pout)
		pin, pout = nin, nout
	}
	return c
}

func (c quoteCalc) usage(d float64) float64 {
	band := func(tok float64, step []float64) float64 {
		x, sum := d*tok/1e6, 0.0
		for i, from := range c.from {
			if x > from {
				sum += (x - from) * step[i]
			}
		}
		return sum
	}
	return c.batch*(band(c.unc, c.stepIn)+d*c.cachedCost+band(c.out, c.stepOut)) + d*c.fee
}

func (c quoteCalc) cost(d float64) float64 {
	return ((math.Max(c.minimum, c.usage(d))+c.taxed)*c.taxF + c.untaxed) * c.rate
}

// piecesTable writes one quote's monthly cost against demand as straight
// pieces, live (planner/pricing.go and planner/crossover.go): the demands
// where a volume band starts for each token kind and where usage reaches
// the minimum commitment (below it the quote costs the minimum), sorted;
// each piece's cost at its start, slope and intercept; and the first piece
// at whose end the quote costs more than one self-hosted box. That piece's
// intercept and slope are the crossover's F_api and V_api, named
// QuoteN_Crossing_Fixed and QuoteN_Crossing_Per_Request.
func (b *book) piecesTable(s *sheet, p string, q planner.Quote, qc planner.QuoteCost) (fixed, perRequest float64) {
	c := newQuoteCalc(q, qc, b.r.Result.TaxBasis)
	minF := "N(" + p + "Minimum_Monthly)"
	usage := func(d string) string {
		// usage is quoteAt before the minimum, the charges, tax and rate.
		band := func(tokens, step string) string {
			x := fmt.Sprintf("%s*%s%s/1000000", d, p, tokens)
			return fmt.Sprintf("SUMPRODUCT((%[1]s>%[2]sBand_From)*(%[1]s-%[2]sBand_From)*%[2]s%[3]s)", x, p, step)
		}
		return fmt.Sprintf("(%[1]sBatch_Factor*(%[2]s+%[3]s*%[1]sCached_Input_Cost+%[4]s)+%[3]s*%[1]sRequest_Fee)",
			p, band("Uncached_Input_Tokens", "Band_Input_Step"), d, band("Priced_Output_Tokens", "Band_Output_Step"))
	}
	s.add()
	s.add(excelize_bold(b, "Pieces of "+qc.Name+"'s monthly cost against demand (live: volume bands and the minimum commitment)"))
	b.headers(s, "Where a piece may start", "Demand (requests a month)", "Usage there (before the minimum)", "At or below the minimum: demand", "Above the minimum: demand", "Piece start used")

	// Candidate starts: zero, each band start for each token kind.
	type cand struct {
		label  string
		d      float64
		formul string
	}
	cands := []cand{{"zero", 0, "0"}}
	for i, t := range q.Tiers {
		from := t.FromMTokens.InexactFloat64()
		for _, k := range []struct {
			kind, tok string
			per       float64
		}{{"input", "Uncached_Input_Tokens", c.unc}, {"output", "Priced_Output_Tokens", c.out}} {
			d := never
			if k.per > 0 {
				d = from * 1e6 / k.per
			}
			cands = append(cands, cand{fmt.Sprintf("band %d starts (%s tokens)", i+2, k.kind), d,
				fmt.Sprintf(`IF(%[1]s%[2]s>0,%[1]sTier%[3]d_From_M*1000000/%[1]s%[2]s,%[4]s)`, p, k.tok, i+1, neverF)})
		}
	}
	first := s.next()
	last := first + len(cands) - 1
	minRow := last + 1
	// Where usage reaches the minimum: between the last candidate at or
	// below it and the first above it (usage is straight in between), or
	// along the last piece's slope.
	lo, hi := 0.0, never
	for _, cd := range cands {
		if cd.d >= never {
			continue
		}
		if u := c.usage(cd.d); u <= c.minimum {
			lo = math.Max(lo, cd.d)
		} else {
			hi = math.Min(hi, cd.d)
		}
	}
	dstar := never
	if c.minimum > 0 {
		if hi < never {
			dstar = lo + (c.minimum-c.usage(lo))*(hi-lo)/(c.usage(hi)-c.usage(lo))
		} else if sl := (c.usage(lo+1e6) - c.usage(lo)) / 1e6; sl > 0 {
			dstar = lo + (c.minimum-c.usage(lo))/sl
		}
	}
	cut := 0.0
	if c.minimum > 0 {
		cut = dstar
	}
	keys := []float64{}
	for i, cd := range cands {
		r := first + i
		B, C := rel(2, r), rel(3, r)
		var u any = ""
		var loV, hiV float64 = -1, never
		key := never
		if cd.d < never {
			u = c.usage(cd.d)
			if u.(float64) <= c.minimum {
				loV = cd.d
			} else {
				hiV = cd.d
			}
			if i == 0 || cd.d > cut {
				key = cd.d
			}
		}
		keyF := fmt.Sprintf(`IF(%s>%s,%s,%s)`, B, abs(2, minRow+1), B, neverF)
		if i == 0 {
			keyF, key = "0", 0
		}
		keys = append(keys, key)
		s.add(cd.label, fx(b.st.demand, cd.formul, cd.d),
			fx(b.inCur(b.st.money, q.Currency), fmt.Sprintf(`IF(%s>=%s,"",%s)`, B, neverF, usage(B)), u),
			fx(b.st.demand, fmt.Sprintf(`IF(%[1]s>=%[2]s,-1,IF(%[3]s<=%[4]s,%[1]s,-1))`, B, neverF, C, minF), loV),
			fx(b.st.demand, fmt.Sprintf(`IF(%[1]s>=%[2]s,%[2]s,IF(%[3]s>%[4]s,%[1]s,%[2]s))`, B, neverF, C, minF), hiV),
			fx(b.st.demand, keyF, key))
	}
	loF, hiF := fmt.Sprintf("MAX(%s:%s)", abs(4, first), abs(4, last)), fmt.Sprintf("MIN(%s:%s)", abs(5, first), abs(5, last))
	L, H := abs(2, minRow+2), abs(3, minRow+2)
	dF := fmt.Sprintf(`IF(%[1]s<=0,%[2]s,IF(%[3]s<%[2]s,%[4]s+(%[1]s-%[5]s)*(%[3]s-%[4]s)/(%[6]s-%[5]s),IF((%[7]s-%[5]s)>0,%[4]s+(%[1]s-%[5]s)/((%[7]s-%[5]s)/1000000),%[2]s)))`,
		minF, neverF, H, L, usage(L), usage(H), usage("("+L+"+1000000)"))
	keys = append(keys, dstar)
	s.add("usage reaches the minimum commitment", fx(b.st.demand, dF, dstar), nil, nil, nil, fx(b.st.demand, fmt.Sprintf(`IF(%s<=0,%s,%s)`, minF, neverF, rel(2, minRow)), dstar))
	s.add("pieces start above (the minimum's end, or zero)", fx(b.st.demand, fmt.Sprintf(`IF(%s<=0,0,%s)`, minF, rel(2, minRow)), cut))
	s.add("last start at or below the minimum, first above it", fx(b.st.demand, loF, lo), fx(b.st.demand, hiF, hi))
	keyRange := fmt.Sprintf("%s:%s", abs(6, first), abs(6, minRow))
	nKeys := len(keys)

	// The pieces, sorted: each starts where the one before ends.
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	s.add()
	b.headers(s, "Piece", "From (requests a month)", "To", "Cost at the start", "Slope (per request)", "Intercept (monthly)", "Dearer than one box at its end")
	pFirst := s.next()
	fl, vl := money(b.r.Result.SelfHosted.FixedPerBox), money(b.r.Result.SelfHosted.PerRequest)
	picked := -1
	type piece struct{ from, to, cost, slope, icpt float64 }
	var ps []piece
	for i, from := range sorted {
		if from >= never {
			break
		}
		pc := piece{from: from, to: never}
		if i+1 < len(sorted) {
			pc.to = sorted[i+1]
		}
		pc.cost = c.cost(pc.from)
		if pc.to >= never {
			pc.slope = (c.cost(pc.from+1e6) - pc.cost) / 1e6
		} else {
			pc.slope = (c.cost(pc.to) - pc.cost) / (pc.to - pc.from)
		}
		pc.slope = planner.RoundPerRequest(decimal.NewFromFloat(pc.slope)).InexactFloat64()
		pc.icpt = pc.cost - pc.slope*pc.from
		ps = append(ps, pc)
	}
	for k := 0; k < nKeys; k++ {
		r := pFirst + k
		F, T, D, E, I := rel(2, r), rel(3, r), rel(4, r), rel(5, r), rel(6, r)
		fromF := fmt.Sprintf("MIN(%s)", keyRange)
		if k > 0 {
			fromF = fmt.Sprintf(`IF(%[1]s="","",IF(%[2]s>=%[3]s,"",%[2]s))`, rel(2, r-1), rel(3, r-1), neverF)
		}
		count := fmt.Sprintf("SUMPRODUCT(--(%s<=%s))", keyRange, F)
		toF := fmt.Sprintf(`IF(%[1]s="","",IF(%[2]s>=%[3]d,%[4]s,SMALL(%[5]s,%[2]s+1)))`, F, count, nKeys, neverF, keyRange)
		costF := fmt.Sprintf(`IF(%s="","",%s)`, F, quoteAt(p, F))
		// The slope is a per-request price: rounded as the planner rounds
		// one (planner.RoundPerRequest).
		slopeF := fmt.Sprintf(`IF(%[1]s="","",%[2]s)`, F, roundSig(fmt.Sprintf(`IF(%[1]s>=%[2]s,(%[3]s-%[4]s)/1000000,(%[5]s-%[4]s)/(%[1]s-%[6]s))`,
			T, neverF, quoteAt(p, "("+F+"+1000000)"), D, quoteAt(p, T), F)))
		icptF := fmt.Sprintf(`IF(%[1]s="","",%[2]s-%[3]s*%[1]s)`, F, D, E)
		flagF := fmt.Sprintf(`IF(%[1]s="",FALSE,IF(%[2]s>=%[3]s,OR(%[4]s>V_Local,%[5]s>SH_Fixed_Per_Box+V_Local*%[1]s),%[6]s+%[4]s*%[2]s>SH_Fixed_Per_Box+V_Local*%[2]s))`,
			F, T, neverF, E, D, I)
		var from, to, cost, slope, icpt, flag any = "", "", "", "", "", false
		if k < len(ps) {
			pc := ps[k]
			from, to, cost, slope, icpt = pc.from, pc.to, pc.cost, pc.slope, pc.icpt
			if pc.to >= never {
				flag = pc.slope > vl || pc.cost > fl+vl*pc.from
			} else {
				flag = pc.icpt+pc.slope*pc.to > fl+vl*pc.to
			}
			if flag.(bool) && picked < 0 {
				picked = k
			}
		}
		s.add(fmt.Sprintf("piece %d", k+1), fx(b.st.demand, fromF, from), fx(b.st.demandEnd, toF, to), fx(b.st.money, costF, cost),
			fx(b.st.perReq, slopeF, slope), fx(b.st.money, icptF, icpt), fx(0, flagF, flag))
	}
	pLast := s.next() - 1
	b.names[p+"Piece_From"] = s.rng(2, pFirst, pLast)
	b.names[p+"Piece_Slope"] = s.rng(5, pFirst, pLast)
	b.names[p+"Piece_Intercept"] = s.rng(6, pFirst, pLast)
	if picked < 0 {
		picked = len(ps) - 1
	}
	r := s.next()
	s.add("Piece where the quote first costs more than one box (else the last)",
		fx(b.st.int, fmt.Sprintf("IFERROR(MATCH(TRUE,%s:%s,0),COUNT(%s:%s))", abs(7, pFirst), abs(7, pLast), abs(2, pFirst), abs(2, pLast)), picked+1))
	s.add("F_api of that piece (its intercept)", fx(b.st.money, fmt.Sprintf("INDEX(%s:%s,%s)", abs(6, pFirst), abs(6, pLast), abs(2, r)), ps[picked].icpt))
	s.add("V_api of that piece (its slope)", fx(b.st.perReq, fmt.Sprintf("INDEX(%s:%s,%s)", abs(5, pFirst), abs(5, pLast), abs(2, r)), ps[picked].slope))
	b.name(p+"Crossing_Fixed", s, 2, r+1)
	b.name(p+"Crossing_Per_Request", s, 2, r+2)
	return ps[picked].icpt, ps[picked].slope
}
