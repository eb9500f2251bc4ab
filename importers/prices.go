package importers

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// Price catalogues: LiteLLM's model_prices_and_context_window.json (an
// object keyed by model, USD per token) and pydantic's genai-prices data
// (an array of providers, each with its models and their prices per
// million tokens, possibly dated and tiered). Both are read as a stream,
// one model at a time (docs/method.md, "Price catalogues").

// DefaultMaxModels bounds the models of one catalogue (LiteLLM's lists a
// few thousand).
const DefaultMaxModels = 50_000

// maxPriceEntry bounds one model's entry, read whole.
const maxPriceEntry = 256 << 10

// PriceOptions tunes ParsePrices.
type PriceOptions struct {
	// MaxBytes is the largest file accepted; 0 means unlimited.
	MaxBytes int64
	// MaxModels bounds the models read; 0 means DefaultMaxModels.
	MaxModels int
	// Date is the retrieval date (YYYY-MM-DD): of a dated price history
	// the price in force on it is taken. Empty means today (UTC).
	Date string
	// Context stops the reading when it is done; nil means never.
	Context context.Context
}

// PriceSkip is one price or model of a catalogue that was not imported,
// with why. Field is empty when the whole model was left out.
type PriceSkip struct {
	Key    string `json:"key"`
	Field  string `json:"field,omitempty"`
	Reason string `json:"reason"`
}

// String says the skip in words.
func (s PriceSkip) String() string {
	if s.Field == "" {
		return s.Key + ": " + s.Reason
	}
	return s.Key + " " + s.Field + ": " + s.Reason
}

// maxSkipsKept bounds the skips listed by name; all are counted.
const maxSkipsKept = 200

// Catalogue is a price catalogue read: its models' prices, and what was
// left out (each bad price named, up to maxSkipsKept, all counted).
type Catalogue struct {
	Catalogue string                   `json:"catalogue"` // planner.CatalogueLiteLLM or planner.CatalogueGenAIPrices
	File      string                   `json:"file"`
	SHA256    string                   `json:"sha256"`
	Bytes     int64                    `json:"bytes"`
	Date      string                   `json:"date"` // the retrieval date the prices are taken at
	Prices    []planner.CataloguePrice `json:"prices"`
	// BadPrices counts prices refused as not finite non-negative numbers.
	BadPrices int `json:"bad_prices"`
	// OtherModels counts models left out for holding no token prices to
	// compare (embeddings, images, audio) or no price in force on Date.
	OtherModels int `json:"other_models"`
	// OtherKeys counts top-level keys of a LiteLLM map that are not
	// models (its sample_spec, a mirror's "last_updated" string), skipped.
	OtherKeys  int         `json:"other_keys"`
	Duplicates int         `json:"duplicates"`
	Skipped    []PriceSkip `json:"skipped"`
}

func (c *Catalogue) skip(key, field, reason string, bad bool) {
	if bad {
		c.BadPrices++
	} else {
		c.OtherModels++
	}
	if len(c.Skipped) < maxSkipsKept {
		c.Skipped = append(c.Skipped, PriceSkip{Key: key, Field: field, Reason: reason})
	}
}

// ParsePrices reads a price catalogue, telling the two apart by their
// shape (an object: LiteLLM; an array: genai-prices). It is whole or
// nothing: a file that is not one of them, is cut off, too large or holds
// more than MaxModels models is refused with an *Error naming what was
// wrong; a single price that is not a finite non-negative number is left
// out, counted and named, and so is a model with no input and output
// token price. A catalogue with no model left is refused.
func ParsePrices(name string, r io.Reader, opt PriceOptions) (c *Catalogue, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, &Error{File: name, Msg: fmt.Sprintf("internal error while reading the file: %v", p)}
		}
	}()
	return parsePrices(name, r, opt)
}

func parsePrices(name string, r io.Reader, opt PriceOptions) (*Catalogue, error) {
	if opt.MaxModels <= 0 {
		opt.MaxModels = DefaultMaxModels
	}
	if opt.Date == "" {
		opt.Date = time.Now().UTC().Format(time.DateOnly)
	} else if _, err := time.Parse(time.DateOnly, opt.Date); err != nil {
		return nil, &Error{File: name, Msg: "retrieval date " + strconv.Quote(opt.Date) + " is not a date (YYYY-MM-DD)"}
	}
	in := newInput(r, Options{MaxBytes: opt.MaxBytes, Context: opt.Context})
	defer in.close()
	l := in.lexer()
	l.recognizeBy, l.what = 0, "price catalogue's entry"
	c := &Catalogue{File: name, Date: opt.Date, Prices: []planner.CataloguePrice{}, Skipped: []PriceSkip{}}
	first, err := l.peek("")
	if err == nil {
		switch first {
		case '{':
			c.Catalogue = planner.CatalogueLiteLLM
			err = readLiteLLM(l, c, opt)
		case '[':
			c.Catalogue = planner.CatalogueGenAIPrices
			err = readGenAIPrices(l, c, opt)
		default:
			err = fmt.Errorf("not a price catalogue: LiteLLM's model_prices_and_context_window.json is a JSON object of models, genai-prices' data a JSON array of providers")
		}
	}
	if err == nil {
		err = l.finish()
	}
	if err == nil {
		err = in.drain()
	}
	if cerr := in.close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, wrapErr(name, err)
	}
	if len(c.Prices) == 0 {
		msg := fmt.Sprintf("no model with input and output token prices in this %s catalogue (%d left out)", c.Catalogue, c.OtherModels+c.BadPrices)
		if c.OtherKeys > 0 {
			msg = fmt.Sprintf("no model with input and output token prices in this %s catalogue (%d left out; top-level keys that are not models: %d)", c.Catalogue, c.OtherModels+c.BadPrices, c.OtherKeys)
		}
		if len(c.Skipped) > 0 { // name what was left out, model and field
			var say []string
			for _, sk := range c.Skipped[:min(3, len(c.Skipped))] {
				say = append(say, sk.String())
			}
			msg += ": " + strings.Join(say, "; ")
			if len(c.Skipped) > 3 {
				msg += fmt.Sprintf("; and %d more", c.OtherModels+c.BadPrices+c.OtherKeys-3)
			}
		}
		return nil, &Error{File: name, Msg: msg}
	}
	c.Bytes = in.n
	c.SHA256 = hex.EncodeToString(in.h.Sum(nil))
	sort.Slice(c.Prices, func(i, j int) bool { return c.Prices[i].Key < c.Prices[j].Key })
	return c, nil
}

// entry reads the next value whole as an object of raw fields, bounded by
// maxPriceEntry.
func entry(l *lexer, path string) (map[string]json.RawMessage, error) {
	raw, err := l.capture(path)
	if err != nil {
		return nil, err
	}
	if len(raw) > maxPriceEntry {
		return nil, fmt.Errorf("%s: an entry of %d kB, more than the %d kB a model's prices take: not a price catalogue", path, len(raw)>>10, maxPriceEntry>>10)
	}
	if bytes.IndexByte(raw, 'N') >= 0 || bytes.IndexByte(raw, 'I') >= 0 {
		raw = sanitizeAll(raw)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		if _, ok := err.(*json.UnmarshalTypeError); ok {
			return nil, fmt.Errorf("%s: expected an object of prices, found %s", path, clip(raw))
		}
		return nil, tokenErr(path, err)
	}
	return m, nil
}

// priceValue reads one price: a number (or numeric string) that must be
// finite and non-negative. ok is false when it is absent or null; a
// refusal says why in words.
func priceValue(raw json.RawMessage) (d decimal.Decimal, ok bool, why string) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return d, false, ""
	}
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan", "infinity", "inf":
		return d, false, s + " is not a finite number"
	}
	if s[0] == '"' {
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return d, false, "not a number"
		}
		s = strings.TrimSpace(str)
	} else if s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return d, false, "not a number: " + clip(raw)
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !strings.EqualFold(s, "nan") && !strings.Contains(strings.ToLower(s), "inf"):
		return d, false, "not a number: " + clip([]byte(s))
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return d, false, s + " is not a finite number"
	case f < 0:
		return d, false, s + " is negative"
	}
	d, err = decimal.NewFromString(s)
	if err != nil {
		return d, false, "not a number: " + clip([]byte(s))
	}
	return d, true, ""
}

// litellmPrice are LiteLLM's per-token fields a quote prices, and where
// each goes.
var litellmPrice = map[string]func(*planner.CataloguePrice, *decimal.Decimal){
	"input_cost_per_token":            func(p *planner.CataloguePrice, d *decimal.Decimal) { p.Input = d },
	"output_cost_per_token":           func(p *planner.CataloguePrice, d *decimal.Decimal) { p.Output = d },
	"cache_read_input_token_cost":     func(p *planner.CataloguePrice, d *decimal.Decimal) { p.CacheRead = d },
	"cache_creation_input_token_cost": func(p *planner.CataloguePrice, d *decimal.Decimal) { p.CacheWrite = d },
	"input_cost_per_token_batches":    func(p *planner.CataloguePrice, d *decimal.Decimal) { p.BatchInput = d },
	"output_cost_per_token_batches":   func(p *planner.CataloguePrice, d *decimal.Decimal) { p.BatchOutput = d },
}

// rawValue reads the next value's bytes: a literal as it stands, a
// string, object or array whole (bounded by the lexer's capture).
func (l *lexer) rawValue(path string) ([]byte, error) {
	c, err := l.peek(path)
	if err != nil {
		return nil, err
	}
	if c == '"' || c == '{' || c == '[' {
		return l.capture(path)
	}
	return l.literal(path)
}

// describe names a JSON value by its first byte.
func describe(c byte) string {
	switch {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 'n':
		return "null"
	case c == 't' || c == 'f':
		return "true or false"
	}
	return "a number"
}

// litellmTextModes are the modes whose models are priced by text tokens;
// an entry without a mode counts as one.
var litellmTextModes = map[string]bool{"": true, "chat": true, "completion": true, "responses": true}

// readLiteLLM reads LiteLLM's object of models: per-token prices become
// per million tokens; top-level keys that are not models ("sample_spec",
// the file's own documentation; a string or number a mirror adds, such as
// "last_updated") are skipped and counted; fields not priced are ignored; the priority, flex and long-context
// variants are noted on the model, not priced.
func readLiteLLM(l *lexer, c *Catalogue, opt PriceOptions) error {
	at := map[string]int{}
	n := 0
	return l.object("", func(key string) error {
		// keys that are not models are skipped and counted: the file's
		// own documentation, metadata a mirror adds ("last_updated")
		notModel := ""
		if key == "sample_spec" {
			notModel = "LiteLLM's description of the fields, not a model"
		} else if ch, err := l.peek(key); err != nil {
			return err
		} else if ch != '{' {
			notModel = "not a model: " + describe(ch) + " where a model's object of prices would be"
		}
		if notModel != "" {
			c.OtherKeys++
			if len(c.Skipped) < maxSkipsKept {
				c.Skipped = append(c.Skipped, PriceSkip{Key: key, Reason: notModel})
			}
			return l.skip(key)
		}
		if n++; n > opt.MaxModels {
			return fmt.Errorf("more than %d models: not a catalogue this import reads", opt.MaxModels)
		}
		p := planner.CataloguePrice{Key: key, Model: key}
		var bad []PriceSkip
		// The entry's fields one by one, straight from the stream: a
		// price is a literal, the few strings read whole, the rest skipped.
		err := l.object(key, func(field string) error {
			path := key + "." + field
			switch field {
			case "mode", "litellm_provider":
				var s lstr
				if err := l.decode(path, &s); err != nil {
					return err
				}
				if field == "mode" {
					p.Mode = string(s)
				} else {
					p.Provider = string(s)
				}
				return nil
			}
			set, priced := litellmPrice[field]
			variant := strings.Contains(field, "cost_per_token") && (strings.HasSuffix(field, "_priority") || strings.HasSuffix(field, "_flex") || strings.Contains(field, "_above_"))
			if !priced && !variant {
				return l.skip(path)
			}
			raw, err := l.rawValue(path)
			if err != nil {
				return err
			}
			d, ok, why := priceValue(raw)
			switch {
			case why != "" && priced:
				bad = append(bad, PriceSkip{Key: key, Field: field, Reason: why})
			case ok && priced:
				set(&p, perMillionTokens(d))
			case ok:
				p.Notes = append(p.Notes, fmt.Sprintf("%s: %s USD per 1M tokens (not priced in the quote)", field, perMillionTokens(d).String()))
			}
			return nil
		})
		if err != nil {
			return err
		}
		if p.Provider != "" {
			p.Model = strings.TrimPrefix(key, p.Provider+"/")
		}
		if !litellmTextModes[p.Mode] {
			c.skip(key, "", "mode "+p.Mode+": not priced by text tokens", false)
			return nil
		}
		for _, b := range bad {
			c.skip(b.Key, b.Field, b.Reason, true)
		}
		sort.Strings(p.Notes)
		if p.Input == nil || p.Output == nil {
			c.skip(key, "", "no input and output token price", false)
			return nil
		}
		if i, dup := at[key]; dup {
			c.Duplicates++
			c.Prices[i] = p // the last one, as JSON readers take it
			return nil
		}
		at[key] = len(c.Prices)
		c.Prices = append(c.Prices, p)
		return nil
	})
}

// perMillionTokens turns a price per token into one per million tokens,
// exactly (a shift of the decimal point).
func perMillionTokens(d decimal.Decimal) *decimal.Decimal {
	v := d.Shift(6)
	return &v
}

// genaiPrices are genai-prices' fields a quote prices (already per
// million tokens).
var genaiPrices = []struct {
	field string
	set   func(*planner.CataloguePrice, *decimal.Decimal)
}{
	{"input_mtok", func(p *planner.CataloguePrice, d *decimal.Decimal) { p.Input = d }},
	{"output_mtok", func(p *planner.CataloguePrice, d *decimal.Decimal) { p.Output = d }},
	{"cache_read_mtok", func(p *planner.CataloguePrice, d *decimal.Decimal) { p.CacheRead = d }},
	{"cache_write_mtok", func(p *planner.CataloguePrice, d *decimal.Decimal) { p.CacheWrite = d }},
}

// readGenAIPrices reads genai-prices' array of providers, each model's
// prices one model at a time.
func readGenAIPrices(l *lexer, c *Catalogue, opt PriceOptions) error {
	n := 0
	at := map[string]int{}
	return l.array("", func(i int) error {
		path := fmt.Sprintf("providers[%d]", i)
		var id, pname string
		var models []genaiRead
		err := l.object(path, func(key string) error {
			switch key {
			case "id", "name":
				var s lstr
				if err := l.decode(path+"."+key, &s); err != nil {
					return err
				}
				if key == "id" {
					id = string(s)
				} else {
					pname = string(s)
				}
				return nil
			case "models":
				mp := path
				if id != "" { // a refusal names the provider with the model's place
					mp += " (" + id + ")"
				}
				return l.array(path+".models", func(j int) error {
					if n++; n > opt.MaxModels {
						return fmt.Errorf("more than %d models: not a catalogue this import reads", opt.MaxModels)
					}
					m, err := entry(l, fmt.Sprintf("%s.models[%d]", mp, j))
					if err != nil {
						return err
					}
					models = append(models, genaiModel(m, opt.Date))
					return nil
				})
			}
			return l.skip(path + "." + key)
		})
		if err != nil {
			return err
		}
		if id == "" {
			return fmt.Errorf("%s: a provider without an id: not genai-prices data", path)
		}
		for _, g := range models {
			p := g.price
			p.Provider = cmpOr(pname, id)
			p.Key = id + "/" + p.Key
			for _, b := range g.bad {
				c.skip(p.Key, b.Field, b.Reason, true)
			}
			switch {
			case g.leftOut != "":
				c.skip(p.Key, "", g.leftOut, false)
				continue
			case p.Input == nil || p.Output == nil:
				c.skip(p.Key, "", "no input and output token price", false)
				continue
			}
			if k, dup := at[p.Key]; dup {
				c.Duplicates++
				c.Prices[k] = p
				continue
			}
			at[p.Key] = len(c.Prices)
			c.Prices = append(c.Prices, p)
		}
		return nil
	})
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// genaiRead is one model as read, before its provider is known: its
// price, the prices refused, or why it was left out.
type genaiRead struct {
	price   planner.CataloguePrice
	bad     []PriceSkip
	leftOut string
}

// genaiEntry is one conditional price set of a model: genai-prices'
// constraint is a start date ({"start_date": "2025-06-10"}) or a daily
// window ({"start_time": "00:30:00Z", "end_time": "16:30:00Z"}); its
// JavaScript package adds a "type" to each. No constraint: always holds.
type genaiEntry struct {
	Constraint *struct {
		Type      lstr `json:"type"`
		StartDate lstr `json:"start_date"`
		StartTime lstr `json:"start_time"`
		EndTime   lstr `json:"end_time"`
	} `json:"constraint"`
	Prices map[string]json.RawMessage `json:"prices"`
}

// genaiCond is a constraint as read: a start date, or a daily window in
// seconds after midnight UTC (from > to: it spans midnight).
type genaiCond struct {
	start    string // YYYY-MM-DD, "" when none
	daily    bool
	from, to int
}

// holds says whether the constraint holds on date at second t (UTC).
func (c genaiCond) holds(date string, t int) bool {
	switch {
	case c.start != "":
		return date >= c.start
	case !c.daily:
		return true
	case c.from <= c.to:
		return t >= c.from && t < c.to
	}
	return t >= c.from || t < c.to
}

// timeOfDay reads genai-prices' "HH:MM:SS" with an optional fraction and
// a zone ("Z" or "+HH:MM"; none is UTC) as seconds after midnight UTC.
var timeOfDayRe = regexp.MustCompile(`^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$`)

func timeOfDay(s string) (int, bool) {
	m := timeOfDayRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, false
	}
	h, _ := strconv.Atoi(m[1])
	mi, _ := strconv.Atoi(m[2])
	sec, _ := strconv.Atoi(cmpOr(m[3], "0"))
	if h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	t := h*3600 + mi*60 + sec
	if z := m[4]; z != "" && z != "Z" {
		oh, _ := strconv.Atoi(z[1:3])
		om, _ := strconv.Atoi(z[4:6])
		off := oh*3600 + om*60
		if z[0] == '-' {
			off = -off
		}
		t -= off
	}
	return ((t % 86400) + 86400) % 86400, true
}

// hhmm says seconds after midnight as "16:30".
func hhmm(t int) string {
	return fmt.Sprintf("%02d:%02d", t/3600, t/60%60)
}

// hoursText says a duration in seconds as hours: "16 h", "7.5 h".
func hoursText(sec int) string {
	return strconv.FormatFloat(float64(sec)/3600, 'f', -1, 64) + " h"
}

// genaiResolve applies genai-prices' own rule to a model's conditional
// prices on date: at any moment, the last entry whose constraint holds
// wins, and when none holds the first does. Over the day's 24 hours
// (daily windows can split it) it returns each entry's share in seconds
// and the windows it wins, in words ("16:30 to 00:30").
func genaiResolve(conds []genaiCond, date string) (secs []int, windows []string) {
	cuts := []int{0, 86400}
	for _, c := range conds {
		if c.daily {
			cuts = append(cuts, c.from, c.to)
		}
	}
	sort.Ints(cuts)
	secs = make([]int, len(conds))
	spans := make([][][2]int, len(conds))
	for k := 0; k+1 < len(cuts); k++ {
		a, b := cuts[k], cuts[k+1]
		if a == b {
			continue
		}
		win := 0
		for i := len(conds) - 1; i >= 0; i-- {
			if conds[i].holds(date, a) {
				win = i
				break
			}
		}
		secs[win] += b - a
		if sp := spans[win]; len(sp) > 0 && sp[len(sp)-1][1] == a {
			sp[len(sp)-1][1] = b
		} else {
			spans[win] = append(sp, [2]int{a, b})
		}
	}
	windows = make([]string, len(conds))
	for i, sp := range spans {
		if n := len(sp); n > 1 && sp[0][0] == 0 && sp[n-1][1] == 86400 { // across midnight
			sp[n-1][1] = sp[0][1]
			sp = sp[1:]
		}
		var w []string
		for _, x := range sp {
			w = append(w, hhmm(x[0])+" to "+hhmm(x[1]%86400))
		}
		windows[i] = strings.Join(w, " and ")
	}
	return secs, windows
}

// genaiModel reads one model: of its conditional prices, the one in force
// on date by the catalogue's own rule (genaiResolve); when daily windows
// split the day, the one in force the most hours is the quote's price and
// the others are noted with their hours (a blend needs the hours of use,
// which a catalogue does not know). Prices superseded or not yet in force
// on date are noted with their dates, never as current. A tiered price is
// taken at its base with its tiers noted. A model left out returns how to
// count it once its provider is known.
func genaiModel(m map[string]json.RawMessage, date string) genaiRead {
	var id, name lstr
	json.Unmarshal(m["id"], &id)
	json.Unmarshal(m["name"], &name)
	g := genaiRead{price: planner.CataloguePrice{Key: string(id), Model: cmpOr(string(name), string(id))}}
	p := &g.price
	later := func(reason string) genaiRead {
		g.leftOut = reason
		return g
	}
	if id == "" {
		return later("a model without an id")
	}
	raw := bytes.TrimSpace(m["prices"])
	var entries []genaiEntry
	switch {
	case len(raw) > 0 && raw[0] == '[':
		if err := json.Unmarshal(raw, &entries); err != nil {
			return later("prices: not a list of conditional prices")
		}
		if len(entries) == 0 {
			return later("prices: an empty list")
		}
	case len(raw) > 0 && raw[0] == '{':
		var one map[string]json.RawMessage
		if err := json.Unmarshal(raw, &one); err != nil {
			return later("prices: not an object of prices")
		}
		entries = []genaiEntry{{Prices: one}}
	default:
		return later("no prices")
	}
	conds := make([]genaiCond, len(entries))
	for i, e := range entries {
		c := e.Constraint
		if c == nil {
			continue
		}
		field := fmt.Sprintf("prices[%d].constraint", i)
		switch {
		case c.StartDate != "" && (c.Type == "" || c.Type == "start_date"):
			d, err := time.Parse(time.DateOnly, strings.TrimSpace(string(c.StartDate)))
			if err != nil {
				return later(field + ".start_date: " + strconv.Quote(string(c.StartDate)) + " is not a date (YYYY-MM-DD)")
			}
			conds[i].start = d.Format(time.DateOnly)
		case (c.StartTime != "" || c.EndTime != "") && (c.Type == "" || c.Type == "time_of_date"):
			from, ok1 := timeOfDay(string(c.StartTime))
			to, ok2 := timeOfDay(string(c.EndTime))
			if !ok1 || !ok2 {
				return later(field + ": start_time " + strconv.Quote(string(c.StartTime)) + " to end_time " + strconv.Quote(string(c.EndTime)) + " is not a daily window (HH:MM:SS with a zone)")
			}
			conds[i] = genaiCond{daily: true, from: from, to: to}
		default:
			return later(field + ": neither a start_date nor a start_time and end_time, the constraints genai-prices gives")
		}
	}
	secs, windows := genaiResolve(conds, date)
	best := 0
	for i := range secs {
		if secs[i] > secs[best] || secs[i] == secs[best] && secs[i] > 0 && i > best {
			best = i
		}
	}
	p.Since = conds[best].start
	for i, e := range entries {
		if i == best {
			continue
		}
		what := genaiDescribe(e.Prices)
		var when, why string
		c := conds[i]
		switch {
		case secs[i] > 0:
			when = fmt.Sprintf("from %s UTC (%s a day)", windows[i], hoursText(secs[i]))
			why = fmt.Sprintf(", which takes the price in force the other %s; a blend needs the hours of use", hoursText(86400-secs[i]))
		case c.start > date:
			when = "from " + c.start + " (not yet in force on " + date + ")"
		case c.daily:
			when = fmt.Sprintf("from %s to %s UTC, outranked all day by a later price", hhmm(c.from), hhmm(c.to))
		default:
			next := ""
			for j := i + 1; j < len(conds); j++ {
				if s := conds[j].start; s != "" && s <= date && s > c.start && (next == "" || s < next) {
					next = s
				}
			}
			if next != "" {
				when = "until " + next + " (no longer in force on " + date + ")"
			} else {
				when = "superseded by a later price (not in force on " + date + ")"
			}
		}
		p.Notes = append(p.Notes, when+": "+what+" USD per 1M tokens (not priced in the quote"+why+")")
	}
	if secs[best] < 86400 {
		p.Notes = append(p.Notes, fmt.Sprintf("the quote's price is in force from %s UTC (%s a day)", windows[best], hoursText(secs[best])))
	}
	prices := entries[best].Prices
	for _, f := range genaiPrices {
		v := bytes.TrimSpace(prices[f.field])
		if len(v) > 0 && v[0] == '{' {
			var t genaiTiered
			if json.Unmarshal(v, &t) != nil {
				g.bad = append(g.bad, PriceSkip{Field: f.field, Reason: "not a price or a tiered price"})
				continue
			}
			for _, tr := range t.Tiers {
				if d, ok, _ := priceValue(tr.Price); ok {
					p.Notes = append(p.Notes, fmt.Sprintf("%s above %s tokens a request: %s USD per 1M tokens (not priced in the quote)", f.field, strings.TrimSpace(string(tr.Start)), d.String()))
				}
			}
			v = t.Base
		}
		d, ok, why := priceValue(v)
		if why != "" {
			g.bad = append(g.bad, PriceSkip{Field: f.field, Reason: why})
		}
		if ok {
			f.set(p, &d)
		}
	}
	return g
}

// genaiWords name genai-prices' priced fields in a note.
var genaiWords = map[string]string{"input_mtok": "input", "output_mtok": "output", "cache_read_mtok": "cache read", "cache_write_mtok": "cache write"}

// genaiDescribe says a price set not priced in the quote in words: "input
// 0.135, cache read 0.035, output 0.55", a tiered price with its tiers
// ("input 5 (10 above 200000 tokens a request)").
func genaiDescribe(prices map[string]json.RawMessage) string {
	var parts []string
	for _, f := range genaiPrices {
		v := bytes.TrimSpace(prices[f.field])
		if len(v) == 0 {
			continue
		}
		w := genaiWords[f.field]
		if v[0] == '{' {
			var t genaiTiered
			if json.Unmarshal(v, &t) != nil {
				continue
			}
			d, ok, _ := priceValue(t.Base)
			if !ok {
				continue
			}
			var tiers []string
			for _, tr := range t.Tiers {
				if td, ok, _ := priceValue(tr.Price); ok {
					tiers = append(tiers, fmt.Sprintf("%s above %s tokens a request", td.String(), strings.TrimSpace(string(tr.Start))))
				}
			}
			s := w + " " + d.String()
			if len(tiers) > 0 {
				s += " (" + strings.Join(tiers, ", ") + ")"
			}
			parts = append(parts, s)
			continue
		}
		if d, ok, _ := priceValue(v); ok {
			parts = append(parts, w+" "+d.String())
		}
	}
	if len(parts) == 0 {
		return "no token prices"
	}
	return strings.Join(parts, ", ")
}

// genaiTiered is a genai-prices price given in tiers: a base price and the
// prices from each tier's start (in tokens) on.
type genaiTiered struct {
	Base  json.RawMessage `json:"base"`
	Tiers []struct {
		Start json.RawMessage `json:"start"`
		Price json.RawMessage `json:"price"`
	} `json:"tiers"`
}
