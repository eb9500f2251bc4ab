package planner

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The public price catalogues the quote library imports (docs/method.md,
// "Price catalogues").
const (
	CatalogueLiteLLM     = "LiteLLM"
	CatalogueGenAIPrices = "genai-prices"
)

// CatalogueStaleDays is how old a catalogue's retrieval may be before the
// quotes it priced are shown as stale: public list prices move within
// weeks, so a month (docs/method.md, "Price catalogues").
const CatalogueStaleDays = 30

// CataloguePrice is one model's list price as a public catalogue states
// it, in USD per million tokens. A price the catalogue does not give is
// nil. Batch prices are the catalogue's batch tier; the cache prices are
// those of input read from and written to the provider's prompt cache.
type CataloguePrice struct {
	Key      string `json:"key"` // the catalogue's key for the model, unique in it
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Mode     string `json:"mode,omitempty"`

	Input       *decimal.Decimal `json:"input,omitempty"`
	Output      *decimal.Decimal `json:"output,omitempty"`
	CacheRead   *decimal.Decimal `json:"cache_read,omitempty"`
	CacheWrite  *decimal.Decimal `json:"cache_write,omitempty"`
	BatchInput  *decimal.Decimal `json:"batch_input,omitempty"`
	BatchOutput *decimal.Decimal `json:"batch_output,omitempty"`
	// Since is the date the catalogue says this price took effect, when it
	// keeps a price history ("" otherwise).
	Since string `json:"since,omitempty"`
	// Notes name what the catalogue gives that a quote does not price
	// (long-context tiers, priority and flex service tiers).
	Notes []string `json:"notes,omitempty"`
}

// CatalogueCurrency is the currency both catalogues price in.
const CatalogueCurrency = "USD"

// cataloguePrices are the prices a move is reported for, in the order
// they are listed, with their words.
var cataloguePrices = []struct {
	label string
	get   func(CataloguePrice) *decimal.Decimal
}{
	{"input price", func(p CataloguePrice) *decimal.Decimal { return p.Input }},
	{"output price", func(p CataloguePrice) *decimal.Decimal { return p.Output }},
	{"cached input price", func(p CataloguePrice) *decimal.Decimal { return p.CacheRead }},
	{"cache write price", func(p CataloguePrice) *decimal.Decimal { return p.CacheWrite }},
	{"batch input price", func(p CataloguePrice) *decimal.Decimal { return p.BatchInput }},
	{"batch output price", func(p CataloguePrice) *decimal.Decimal { return p.BatchOutput }},
}

// QuoteName is the library name of a catalogue's model: the catalogue and
// its key, so re-importing finds it again.
func QuoteName(catalogue, key string) string { return catalogue + ": " + key }

// Quote is the catalogue price as a library quote: token prices per
// million tokens in USD, each figure sourced to the catalogue and its key
// and dated by the retrieval. The cached-input price is the catalogue's
// cache read; a batch price becomes the batch discount (1 - batch/list,
// when input and output are discounted alike) with no traffic eligible
// until finance states the share. The workload's cache-hit share is not a
// catalogue's to say and stays unset.
func (p CataloguePrice) Quote(catalogue, retrieved string) Quote {
	src := catalogue + " " + p.Key
	fig := func(d *decimal.Decimal) *Figure {
		if d == nil {
			return nil
		}
		return &Figure{Amount: *d, Unit: "USD/1M tokens", Source: src, EvidenceDate: retrieved}
	}
	q := Quote{Name: QuoteName(catalogue, p.Key), Provider: p.Provider, Model: p.Model, Currency: CatalogueCurrency,
		InputPerMTokens: fig(p.Input), OutputPerMTokens: fig(p.Output), CachedInputPerMTokens: fig(p.CacheRead)}
	if d, ok := p.BatchDiscount(); ok {
		q.BatchDiscount = &Figure{Amount: d, Unit: "fraction", Source: src, EvidenceDate: retrieved}
		q.BatchShare = &Figure{Amount: decimal.Zero, Unit: "fraction", Source: "not in the catalogue: the share of traffic sent as batch, 0 until stated", EvidenceDate: retrieved}
	}
	return q
}

// BatchDiscount is the catalogue's batch tier as one discount on token
// prices: 1 - batch/list, when both input and output have a batch price
// and both are discounted by the same fraction.
func (p CataloguePrice) BatchDiscount() (decimal.Decimal, bool) {
	if p.Input == nil || p.Output == nil || p.BatchInput == nil || p.BatchOutput == nil || !p.Input.IsPositive() || !p.Output.IsPositive() {
		return decimal.Zero, false
	}
	di := decimal.NewFromInt(1).Sub(p.BatchInput.DivRound(*p.Input, 12))
	do := decimal.NewFromInt(1).Sub(p.BatchOutput.DivRound(*p.Output, 12))
	if !di.Equal(do) || di.IsNegative() || !di.LessThan(decimal.NewFromInt(1)) {
		return decimal.Zero, false
	}
	return di, true
}

// PriceMove is one price of one model that a newer catalogue changed.
type PriceMove struct {
	Key   string          `json:"key"`
	Price string          `json:"price"` // "input price", "output price", ...
	Old   *Money          `json:"old"`   // nil: the older catalogue gave none
	New   *Money          `json:"new"`   // nil: the newer gives none
	Up    bool            `json:"up"`
	Pct   *float64        `json:"pct,omitempty"` // the change as a fraction of the old price
	delta decimal.Decimal // new - old
}

// Sentence says the move in words: "gpt-4o: input price 2.50 → 2.00 USD
// per 1M tokens (−20 %)".
func (m PriceMove) Sentence() string {
	show := func(x *Money) string {
		if x == nil {
			return "none"
		}
		return DisplayMoney(x.Exact)
	}
	s := fmt.Sprintf("%s: %s %s → %s %s per 1M tokens", m.Key, m.Price, show(m.Old), show(m.New), CatalogueCurrency)
	if m.Pct != nil {
		sign := "+"
		if *m.Pct < 0 {
			sign = "−"
		}
		p := DisplayShare(abs(*m.Pct))
		s += " (" + sign + p + ")"
	}
	return s
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// CatalogueChanges is what a newer catalogue moved against the one
// imported before it: each price up or down, the models it adds and those
// it no longer lists.
type CatalogueChanges struct {
	Moves     []PriceMove `json:"moves"`
	Added     []string    `json:"added"`
	Removed   []string    `json:"removed"`
	Unchanged int         `json:"unchanged"`
}

// Moved lists the keys with at least one price moved, in order.
func (c CatalogueChanges) Moved() []string {
	var out []string
	for _, m := range c.Moves {
		if len(out) == 0 || out[len(out)-1] != m.Key {
			out = append(out, m.Key)
		}
	}
	return out
}

// MovesOf lists the moves of one model.
func (c CatalogueChanges) MovesOf(key string) []PriceMove {
	var out []PriceMove
	for _, m := range c.Moves {
		if m.Key == key {
			out = append(out, m)
		}
	}
	return out
}

// CompareCatalogue compares the prices of the same catalogue from two
// retrievals, model by model (by key): every price that moved, with the
// old and new figure and the change in per cent of the old; models only
// in the newer (added) and only in the older (removed). Keys are sorted.
func CompareCatalogue(older, newer []CataloguePrice) CatalogueChanges {
	ch := CatalogueChanges{Moves: []PriceMove{}, Added: []string{}, Removed: []string{}}
	old := make(map[string]CataloguePrice, len(older))
	for _, p := range older {
		old[p.Key] = p
	}
	seen := make(map[string]bool, len(newer))
	keys := make([]string, 0, len(newer))
	byKey := make(map[string]CataloguePrice, len(newer))
	for _, p := range newer {
		if !seen[p.Key] {
			keys = append(keys, p.Key)
		}
		seen[p.Key] = true
		byKey[p.Key] = p
	}
	sort.Strings(keys)
	for _, k := range keys {
		n := byKey[k]
		o, ok := old[k]
		if !ok {
			ch.Added = append(ch.Added, k)
			continue
		}
		moved := false
		for _, cp := range cataloguePrices {
			a, b := cp.get(o), cp.get(n)
			if a == nil && b == nil || a != nil && b != nil && a.Equal(*b) {
				continue
			}
			moved = true
			m := PriceMove{Key: k, Price: cp.label}
			if a != nil {
				v := NewMoney(*a)
				m.Old = &v
			}
			if b != nil {
				v := NewMoney(*b)
				m.New = &v
			}
			switch {
			case a != nil && b != nil:
				m.delta = b.Sub(*a)
				m.Up = m.delta.IsPositive()
				if a.IsPositive() {
					f := m.delta.DivRound(*a, 12).InexactFloat64()
					m.Pct = &f
				}
			case b != nil:
				m.Up = true
			}
			ch.Moves = append(ch.Moves, m)
		}
		if !moved {
			ch.Unchanged++
		}
	}
	for _, p := range older {
		if !seen[p.Key] {
			ch.Removed = append(ch.Removed, p.Key)
		}
	}
	sort.Strings(ch.Removed)
	ch.Removed = compactStrings(ch.Removed)
	return ch
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// CatalogueAge is how many whole days before today a catalogue was
// retrieved (YYYY-MM-DD), and whether that makes its prices stale
// (older than CatalogueStaleDays). A date that does not parse is stale.
func CatalogueAge(retrieved string, today time.Time) (days int, stale bool) {
	t, err := time.Parse(time.DateOnly, retrieved)
	if err != nil {
		return 0, true
	}
	y, m, d := today.Date()
	days = int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(t).Hours() / 24)
	return days, days > CatalogueStaleDays
}

// AgeText says a catalogue's age in words: "retrieved today", "retrieved
// 12 days ago", "retrieved 45 days ago: stale (older than 30 days)".
func AgeText(retrieved string, today time.Time) string {
	days, stale := CatalogueAge(retrieved, today)
	var s string
	switch {
	case retrieved == "":
		return "no retrieval date: stale"
	case days < 0:
		s = "retrieved on " + retrieved + ", after today"
	case days == 0:
		s = "retrieved today"
	case days == 1:
		s = "retrieved 1 day ago"
	default:
		s = fmt.Sprintf("retrieved %d days ago", days)
	}
	if stale {
		s += fmt.Sprintf(": stale (older than %d days)", CatalogueStaleDays)
	}
	return s
}

// HistorySentences says a model's moves as history lines, one sentence
// each: "LiteLLM gpt-4o: input price 2.50 → 2.00 USD per 1M tokens (−20 %)".
func HistorySentences(catalogue string, moves []PriceMove) string {
	lines := make([]string, len(moves))
	for i, m := range moves {
		lines[i] = catalogue + " " + m.Sentence()
	}
	return strings.Join(lines, "\n")
}

// CatalogueTerms splits a filter such as "gpt-4o, claude" into its terms,
// lower case; none means every model.
func CatalogueTerms(filter string) []string {
	var out []string
	for _, t := range strings.Split(filter, ",") {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// CatalogueMatch reports whether a model's key holds one of the terms
// (every key matches no terms).
func CatalogueMatch(key string, terms []string) bool {
	if len(terms) == 0 {
		return true
	}
	k := strings.ToLower(key)
	for _, t := range terms {
		if strings.Contains(k, t) {
			return true
		}
	}
	return false
}
