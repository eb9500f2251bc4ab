package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/pricegen"
)

func priceOf(t *testing.T, c *Catalogue, key string) planner.CataloguePrice {
	t.Helper()
	for _, p := range c.Prices {
		if p.Key == key {
			return p
		}
	}
	t.Fatalf("no price for %q among %d", key, len(c.Prices))
	return planner.CataloguePrice{}
}

func dec(p interface{ String() string }) string {
	if p == nil {
		return "<nil>"
	}
	return p.String()
}

func TestParseLiteLLM(t *testing.T) {
	data := pricegen.LiteLLM([]pricegen.Model{
		{Key: "gpt-4o", Provider: "openai", Input: "2.5e-06", Output: "1e-05", CacheRead: "1.25e-06", BatchInput: "1.25e-06", BatchOutput: "5e-06", Priority: "4.25e-06"},
		{Key: "anthropic/claude-x", Provider: "anthropic", Input: "3e-06", Output: "1.5e-05", CacheRead: "3e-07", CacheWrite: "3.75e-06", Above200kInput: "6e-06"},
		{Key: "text-embedding-3-small", Provider: "openai", Mode: "embedding", Input: "2e-08"},
		{Key: "bad-model", Provider: "x", Input: "-1e-06", Output: `"NaN"`, CacheRead: "1e-07"},
		{Key: "inf-model", Provider: "x", Input: "1e-06", Output: "2e-06", CacheRead: "Infinity"},
	})
	c, err := ParsePrices("model_prices_and_context_window.json", bytes.NewReader(data), PriceOptions{Date: "2026-11-30"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Catalogue != planner.CatalogueLiteLLM || len(c.Prices) != 3 || c.Date != "2026-11-30" || len(c.SHA256) != 64 || c.Bytes != int64(len(data)) {
		t.Fatalf("catalogue %s, %d prices, date %s, sha %q, %d bytes", c.Catalogue, len(c.Prices), c.Date, c.SHA256, c.Bytes)
	}
	g := priceOf(t, c, "gpt-4o")
	if dec(g.Input) != "2.5" || dec(g.Output) != "10" || dec(g.CacheRead) != "1.25" || dec(g.BatchInput) != "1.25" || dec(g.BatchOutput) != "5" || g.Provider != "openai" {
		t.Errorf("gpt-4o per 1M: in %s out %s cached %s batch %s/%s provider %s", dec(g.Input), dec(g.Output), dec(g.CacheRead), dec(g.BatchInput), dec(g.BatchOutput), g.Provider)
	}
	if len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "input_cost_per_token_priority: 4.25") {
		t.Errorf("gpt-4o notes %q, want the priority tier noted", g.Notes)
	}
	q := g.Quote(c.Catalogue, c.Date)
	if q.Name != "LiteLLM: gpt-4o" || q.Currency != "USD" || q.BatchDiscount == nil || q.BatchDiscount.Amount.String() != "0.5" ||
		q.BatchShare == nil || !q.BatchShare.Amount.IsZero() || q.InputPerMTokens.EvidenceDate != "2026-11-30" || q.CacheHitShare != nil {
		t.Errorf("quote %+v", q)
	}
	if err := q.Validate(); err != nil {
		t.Errorf("the imported quote does not validate: %v", err)
	}
	a := priceOf(t, c, "anthropic/claude-x")
	if a.Model != "claude-x" || dec(a.CacheWrite) != "3.75" || a.BatchInput != nil || len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "above_200k") {
		t.Errorf("claude-x %+v", a)
	}
	if aq := a.Quote(c.Catalogue, c.Date); aq.BatchDiscount != nil {
		t.Error("no batch tier, yet a batch discount")
	}
	inf := priceOf(t, c, "inf-model")
	if inf.CacheRead != nil {
		t.Error("an infinite cache price was imported")
	}
	// Bad prices are counted and named; the embedding and the model left
	// without both token prices are counted as other models.
	if c.BadPrices != 3 || c.OtherModels != 2 {
		t.Errorf("bad %d other %d; skipped %v", c.BadPrices, c.OtherModels, c.Skipped)
	}
	var words []string
	for _, s := range c.Skipped {
		words = append(words, s.String())
	}
	all := strings.Join(words, "; ")
	for _, want := range []string{"bad-model input_cost_per_token: -1e-06 is negative", "bad-model output_cost_per_token: NaN is not a finite number",
		"inf-model cache_read_input_token_cost: Infinity is not a finite number", "text-embedding-3-small: mode embedding", "bad-model: no input and output token price"} {
		if !strings.Contains(all, want) {
			t.Errorf("skips %q lack %q", all, want)
		}
	}
}

func TestParseGenAIPrices(t *testing.T) {
	data := pricegen.GenAIPrices([]pricegen.Provider{
		{ID: "anthropic", Name: "Anthropic", Models: []pricegen.Model{{Key: "claude-opus-9"}, {Key: "claude-haiku-9", Input: "1", Output: "5", CacheRead: "0.1", CacheWrite: "1.25"}},
			History: map[string][]pricegen.Dated{"claude-opus-9": {
				{Model: pricegen.Model{Input: `{"base": 15, "tiers": [{"start": 200000, "price": 30}]}`, Output: "75", CacheRead: "1.5"}},
				{Since: "2026-06-01", Model: pricegen.Model{Input: "5", Output: "25", CacheRead: "0.5"}},
				{Since: "2027-01-01", Model: pricegen.Model{Input: "4", Output: "20"}},
			}}},
		{ID: "openai", Name: "OpenAI", Models: []pricegen.Model{{Key: "gpt-9", Input: "2", Output: "-8"}, {Key: "dall-e", Extra: `"requests_kcount": 40`}}},
	})
	// Before the June cut: the undated set, its tiered input at its base.
	c, err := ParsePrices("data.json", bytes.NewReader(data), PriceOptions{Date: "2026-05-31"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Catalogue != planner.CatalogueGenAIPrices {
		t.Fatalf("catalogue %s", c.Catalogue)
	}
	o := priceOf(t, c, "anthropic/claude-opus-9")
	if dec(o.Input) != "15" || dec(o.Output) != "75" || o.Since != "" || o.Provider != "Anthropic" || !strings.Contains(strings.Join(o.Notes, "|"), "input_mtok above 200000 tokens a request: 30") || !strings.Contains(strings.Join(o.Notes, "|"), "from 2026-06-01 (not yet in force on 2026-05-31): input 5") {
		t.Errorf("opus before the cut %+v", o)
	}
	// On the retrieval date of December: the June set, not the one dated
	// after it.
	c, err = ParsePrices("data.json", bytes.NewReader(data), PriceOptions{Date: "2026-12-01"})
	if err != nil {
		t.Fatal(err)
	}
	o = priceOf(t, c, "anthropic/claude-opus-9")
	if dec(o.Input) != "5" || dec(o.Output) != "25" || dec(o.CacheRead) != "0.5" || o.Since != "2026-06-01" {
		t.Errorf("opus in December %+v", o)
	}
	h := priceOf(t, c, "anthropic/claude-haiku-9")
	if dec(h.CacheWrite) != "1.25" || h.Model != "Claude-haiku-9" {
		t.Errorf("haiku %+v", h)
	}
	if len(c.Prices) != 2 || c.BadPrices != 1 || c.OtherModels != 2 {
		t.Errorf("%d prices, bad %d, other %d: %v", len(c.Prices), c.BadPrices, c.OtherModels, c.Skipped)
	}
	if s := c.Skipped[0].String(); s != "openai/gpt-9 output_mtok: -8 is negative" {
		t.Errorf("first skip %q", s)
	}
}

// TestParsePricesRefusals holds the whole-or-nothing rule: a file that is
// not a catalogue, is cut off, too large, holds too many models or none
// is refused, naming what was wrong.
func TestParsePricesRefusals(t *testing.T) {
	one := pricegen.LiteLLM([]pricegen.Model{{Key: "m", Input: "1e-06", Output: "2e-06"}})
	cases := []struct {
		name string
		data []byte
		opt  PriceOptions
		want string
	}{
		{"not json", []byte("model,price\n"), PriceOptions{}, "not a price catalogue"},
		{"cut off", one[:len(one)-20], PriceOptions{}, "cut off"},
		{"too large", one, PriceOptions{MaxBytes: 100}, "larger than the limit of 100 bytes"},
		{"too many", pricegen.LiteLLM(pricegen.Many(3)), PriceOptions{MaxModels: 2}, "more than 2 models"},
		{"none", pricegen.LiteLLM([]pricegen.Model{{Key: "e", Mode: "embedding", Input: "1e-08"}}), PriceOptions{}, "no model with input and output token prices"},
		{"no entry an object", []byte(`{"m": [1, 2]}`), PriceOptions{}, "top-level keys that are not models: 1"},
		{"provider without id", []byte(`[{"name": "X", "models": []}]`), PriceOptions{}, "providers[0]: a provider without an id"},
		{"bad date", one, PriceOptions{Date: "1 Dec"}, `retrieval date "1 Dec" is not a date`},
		{"trailing", append(append([]byte{}, one...), []byte("{}")...), PriceOptions{}, "after the end of the document"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParsePrices("prices.json", bytes.NewReader(tc.data), tc.opt)
			if err == nil {
				t.Fatalf("accepted: %d prices", len(c.Prices))
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "prices.json" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want one naming the file and %q", err, tc.want)
			}
		})
	}
	if _, err := ParsePrices("p.json", bytes.NewReader(one), PriceOptions{MaxBytes: 100}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("too large does not wrap ErrTooLarge: %v", err)
	}
}

// TestParseLiteLLMStreams reads a catalogue through a reader that hands
// one byte at a time: the models come out the same as read whole.
func TestParseLiteLLMStreams(t *testing.T) {
	data := pricegen.LiteLLM(pricegen.Many(50))
	whole, err := ParsePrices("a.json", bytes.NewReader(data), PriceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slow, err := ParsePrices("a.json", io.LimitReader(oneByte{bytes.NewReader(data)}, int64(len(data))), PriceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(whole.Prices)
	b, _ := json.Marshal(slow.Prices)
	if !bytes.Equal(a, b) || len(whole.Prices) != 50 {
		t.Errorf("%d prices read whole, read byte by byte differ: %v", len(whole.Prices), !bytes.Equal(a, b))
	}
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func fuzzPrices(t *testing.T, data []byte) {
	c, err := parsePrices("f.json", bytes.NewReader(data), PriceOptions{MaxBytes: 1 << 20, Date: "2026-12-01"})
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "f.json: ") {
			t.Fatalf("error not naming the file: %v", err)
		}
		return
	}
	for _, p := range c.Prices {
		for _, d := range []interface{ IsNegative() bool }{p.Input, p.Output} {
			if d.IsNegative() {
				t.Fatalf("%s: a negative price passed", p.Key)
			}
		}
		if err := p.Quote(c.Catalogue, c.Date).Validate(); err != nil {
			t.Fatalf("%s: its quote does not validate: %v", p.Key, err)
		}
	}
}

// FuzzParseLiteLLM fuzzes the LiteLLM catalogue reader.
func FuzzParseLiteLLM(f *testing.F) {
	f.Add(pricegen.LiteLLM(pricegen.Many(3)))
	f.Add(pricegen.LiteLLM([]pricegen.Model{{Key: "m", Input: "NaN", Output: "-0", CacheRead: `"1e-7"`, BatchInput: "1e400"}}))
	f.Add([]byte(`{"sample_spec": {}, "a": {"input_cost_per_token": 1, "output_cost_per_token": 2}, "a": {"input_cost_per_token": 1, "output_cost_per_token": 3}}`))
	f.Add(mustRead(f, "testdata/litellm_last_updated.json"))
	f.Fuzz(fuzzPrices)
}

// FuzzParseGenAIPrices fuzzes the genai-prices reader.
func FuzzParseGenAIPrices(f *testing.F) {
	f.Add(pricegen.GenAIPrices([]pricegen.Provider{{ID: "p", Name: "P", Models: []pricegen.Model{{Key: "m", Input: `{"base": 1, "tiers": [{"start": 1000, "price": 2}]}`, Output: "3"}},
		History: map[string][]pricegen.Dated{}}}))
	f.Add([]byte(`[{"id": "p", "models": [{"id": "m", "prices": [{"constraint": {"type": "time_of_date", "start_time": "00:00", "end_time": "08:00"}, "prices": {"input_mtok": 1, "output_mtok": 2}}, {"prices": {"input_mtok": 2, "output_mtok": 4}}]}]}]`))
	f.Add(mustRead(f, "testdata/genai_prices_conditional.json"))
	f.Fuzz(fuzzPrices)
}

// BenchmarkParseLiteLLM reads a generated catalogue of 3,000 models
// (about the size of LiteLLM's) with the streamed reader, beside its
// reference in the same run: the same bytes decoded whole by
// encoding/json into maps, as a script reading the catalogue would.
func BenchmarkParseLiteLLM(b *testing.B) {
	data := pricegen.LiteLLM(pricegen.Many(3000))
	b.Run("reference-json-unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			var m map[string]map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("streamed", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParsePrices("p.json", bytes.NewReader(data), PriceOptions{Date: "2026-12-01"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestGenAIPricesConditional: genai-prices' conditional prices resolved
// by its own rule (the last entry whose constraint holds wins) on the
// retrieval date, the others noted with their conditions in words.
func TestGenAIPricesConditional(t *testing.T) {
	read := func(date string) *Catalogue {
		t.Helper()
		f, err := os.Open("testdata/genai_prices_conditional.json")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		c, err := ParsePrices("data.json", f, PriceOptions{Date: date})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	notes := func(p planner.CataloguePrice) string { return strings.Join(p.Notes, " | ") }
	c := read("2026-12-03")
	o3 := priceOf(t, c, "openai/o3")
	if dec(o3.Input) != "2" || dec(o3.Output) != "8" || o3.Since != "2025-06-10" {
		t.Errorf("o3 in force since 2025-06-10: %s/%s since %q", dec(o3.Input), dec(o3.Output), o3.Since)
	}
	if n := notes(o3); !strings.Contains(n, "until 2025-06-10 (no longer in force on 2026-12-03): input 10, output 40") || strings.Contains(n, "time-of-day") {
		t.Errorf("o3 notes %q", n)
	}
	ds := priceOf(t, c, "deepseek/deepseek-chat")
	if dec(ds.Input) != "0.27" || dec(ds.Output) != "1.1" || dec(ds.CacheRead) != "0.07" {
		t.Errorf("deepseek-chat headline %s/%s, want the 16 hours' 0.27/1.1", dec(ds.Input), dec(ds.Output))
	}
	if n := notes(ds); !strings.Contains(n, "from 16:30 to 00:30 UTC (8 h a day): input 0.135, output 0.55, cache read 0.035") || !strings.Contains(n, "in force from 00:30 to 16:30 UTC (16 h a day)") {
		t.Errorf("deepseek-chat notes %q", n)
	}
	op := priceOf(t, c, "anthropic/claude-opus-4-6")
	if dec(op.Input) != "5" || op.Since != "2026-03-13" {
		t.Errorf("opus %s since %q", dec(op.Input), op.Since)
	}
	for _, n := range op.Notes {
		if strings.Contains(n, "above 200000") && !strings.Contains(n, "until 2026-03-13 (no longer in force") {
			t.Errorf("an ended surcharge listed as current: %q", n)
		}
	}
	if s5 := priceOf(t, c, "anthropic/claude-sonnet-5"); dec(s5.Input) != "3" || s5.Since != "2026-09-01" {
		t.Errorf("sonnet-5 %s since %q", dec(s5.Input), s5.Since)
	}
	// Before the dates: the first entry, later ones noted as coming.
	c = read("2025-06-09")
	if o3 := priceOf(t, c, "openai/o3"); dec(o3.Input) != "10" || o3.Since != "" || !strings.Contains(notes(o3), "from 2025-06-10 (not yet in force on 2025-06-09): input 2, output 8") {
		t.Errorf("o3 before its cut: %s, %q", dec(o3.Input), notes(o3))
	}
	c = read("2026-03-12")
	if op := priceOf(t, c, "anthropic/claude-opus-4-6"); !strings.Contains(notes(op), "input_mtok above 200000 tokens a request: 10") {
		t.Errorf("opus surcharge while in force: %q", notes(op))
	}
	if g := priceOf(t, c, "openai/gpt-4o"); dec(g.Input) != "2.5" || len(g.Notes) != 0 {
		t.Errorf("a plain price: %+v", g)
	}
}

// TestGenAIPricesRule: the rule at each moment, windows across midnight
// and with a zone, and the first entry when none holds.
func TestGenAIPricesRule(t *testing.T) {
	if s, ok := timeOfDay("08:30:00+08:00"); !ok || s != 1800 {
		t.Errorf("08:30+08:00 = %d s after midnight UTC, want 1800", s)
	}
	night := genaiCond{daily: true, from: 22 * 3600, to: 6 * 3600}
	secs, win := genaiResolve([]genaiCond{{}, night}, "2026-01-01")
	if secs[1] != 8*3600 || win[1] != "22:00 to 06:00" || secs[0] != 16*3600 {
		t.Errorf("secs %v windows %q", secs, win)
	}
	secs, _ = genaiResolve([]genaiCond{{start: "2027-01-01"}, {start: "2028-01-01"}}, "2026-01-01")
	if secs[0] != 86400 {
		t.Errorf("none holds: the first wins, got %v", secs)
	}
}

// TestLiteLLMTopLevelKeys: a LiteLLM map with top-level keys that are not
// models (its sample_spec, a mirror's "last_updated" string) imports its
// models and counts the keys skipped.
func TestLiteLLMTopLevelKeys(t *testing.T) {
	f, err := os.Open("testdata/litellm_last_updated.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := ParsePrices("model_prices_and_context_window.json", f, PriceOptions{Date: "2026-12-01"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Prices) != 2 || c.OtherKeys != 2 || c.OtherModels != 1 {
		t.Fatalf("%d prices, %d other keys, %d other models: %v", len(c.Prices), c.OtherKeys, c.OtherModels, c.Skipped)
	}
	if ds := priceOf(t, c, "deepseek/deepseek-chat"); dec(ds.Input) != "0.27" || dec(ds.Output) != "1.1" {
		t.Errorf("deepseek-chat %s/%s", dec(ds.Input), dec(ds.Output))
	}
	var said []string
	for _, s := range c.Skipped {
		said = append(said, s.String())
	}
	if j := strings.Join(said, "\n"); !strings.Contains(j, "last_updated: not a model: a string") || !strings.Contains(j, "sample_spec: LiteLLM's description") {
		t.Errorf("skips %q", j)
	}
}

// TestPriceRefusalsNameModelAndField: a catalogue refused for holding no
// usable model says which models and fields were left out.
func TestPriceRefusalsNameModelAndField(t *testing.T) {
	for in, want := range map[string]string{
		`{"gpt-4o": {"input_cost_per_token": [1], "output_cost_per_token": 2e-6}}`:                                                                        "gpt-4o input_cost_per_token: not a number: [1]",
		`{"last_updated": "2026-11-30", "e": {"mode": "embedding", "input_cost_per_token": 1e-8}}`:                                                        "e: mode embedding",
		`[{"id": "openai", "models": [{"id": "o3", "prices": {"input_mtok": "abc", "output_mtok": 2}}]}]`:                                                 "openai/o3 input_mtok: not a number: abc",
		`[{"id": "openai", "models": [{"id": "o3", "prices": [{"constraint": {"start_date": "June"}, "prices": {"input_mtok": 1, "output_mtok": 2}}]}]}]`: `openai/o3: prices[0].constraint.start_date: "June" is not a date`,
	} {
		_, err := ParsePrices("p.json", strings.NewReader(in), PriceOptions{Date: "2026-12-01"})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v, want %q", in, err, want)
		}
	}
}
