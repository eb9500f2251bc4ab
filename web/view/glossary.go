package view

import (
	"context"
	"io"
	"regexp"
	"strings"

	"github.com/a-h/templ"
)

// GlossaryEntry is one word of the field explained in plain sentences on
// the glossary page; its Key is the page's anchor (/glossary#Key).
type GlossaryEntry struct {
	Key  string
	Name string
	// Words are the spellings linked on first use in running text
	// (Prose); Name is always one of them.
	Words []string
	Text  string
}

// Glossary is the one list of the field's words: the glossary page shows
// it in this order, and every link to a term (Term, Prose) names one of
// its keys.
var Glossary = []GlossaryEntry{
	{Key: "ttft", Name: "TTFT (time to first token)", Words: []string{"TTFT", "time to first token", "first tokens"},
		Text: "How long a user waits, from sending a request, until the first token of the answer arrives. It is what makes a chat feel quick or slow; a request that waits in a queue adds that wait to its TTFT."},
	{Key: "itl", Name: "ITL (inter-token latency)", Words: []string{"ITL", "inter-token latency", "gaps between tokens"},
		Text: "The time between two output tokens after the first. Output speed per user, in tokens a second, is 1 / ITL: at most 50 ms between tokens is at least 20 tokens a second."},
	{Key: "tpot", Name: "TPOT (time per output token)", Words: []string{"TPOT", "time per output token", "per output token"},
		Text: "The time an answer takes per output token. Some tools count the first token in it and some do not, so each row keeps the tool's own definition beside the figure; an objective given as an output speed is judged against ITL instead."},
	{Key: "e2e", Name: "End-to-end latency", Words: []string{"end-to-end latency", "end-to-end", "whole answers"},
		Text: "The time from sending a request to receiving the last token of its answer: what a user waits for the whole answer."},
	{Key: "percentile", Name: "p95 and p99 (percentiles)", Words: []string{"p95", "p99", "percentile"},
		Text: "p95 is the time within which 95 % of requests finished; p99, 99 %. The objective names one percentile and bounds its times, so \"p95 TTFT at most 2 s\" lets one request in twenty wait longer. A p99 needs far more requests to be measured with confidence than a p95."},
	{Key: "closed-loop", Name: "Closed loop and arrivals", Words: []string{"closed loop", "closed-loop", "arrivals"},
		Text: "A closed-loop test runs a fixed number of streams, each sending its next request only when the last is answered, so the box is never asked for more than it can take. Real users arrive at random and in bursts, whether the box is busy or not: a queue builds near the closed-loop rate. capplan therefore sizes boxes with simulated random arrivals, not with the closed-loop rate alone."},
	{Key: "ceiling", Name: "Ceiling", Words: []string{"ceiling"},
		Text: "The highest tested load at which the box passed the objective with enough evidence, with no failing load at or below it. What one box serves within the objective is read at the ceiling."},
	{Key: "envelope", Name: "Envelope", Words: []string{"envelope"},
		Text: "The range of load the box is shown to hold the objective in: from the lowest tested load up to the ceiling, with the first failure above it. The admission limit, the capacity per box and the costs all rest on it."},
	{Key: "weak-evidence", Name: "Weak evidence", Words: []string{"weak evidence", "inconclusive"},
		Text: "A row that passed but on too few requests, too short a run or a confidence bound that does not settle it. Weak evidence never removes a failure: a failing row counts whatever its sample. A weak pass above the ceiling proves nothing, and a ceiling resting on one keeps the exit check open until a rerun or an amendment settles it."},
	{Key: "confidence-bound", Name: "Confidence bound", Words: []string{"confidence bound", "confidence bounds"},
		Text: "From a row's per-request records, the range in which the true percentile lies at the contract's confidence (95 % unless set). A pass is conclusive when the upper bound is within the limit, a failure when the lower bound is beyond it; otherwise the row says how many requests would settle it."},
	{Key: "admission", Name: "Admission", Words: []string{"admission limit", "admission"},
		Text: "What the gateway in front of the box lets in: a number of requests in flight, a queue of a given size and age behind them, and beyond that an answer of HTTP 429 with Retry-After. It is set from the ceiling so that admitted requests still meet the objective."},
	{Key: "wait-budget", Name: "Queue wait budget", Words: []string{"wait budget", "queue wait budget"},
		Text: "How long a request may wait in the queue and still meet the objective: the TTFT bound less the TTFT measured at the ceiling. The queue's maximum age is this budget, and its size is what the box drains in that time."},
	{Key: "retry-after", Name: "Retry-After", Words: []string{"Retry-After"},
		Text: "The header sent with a 429 answer that tells the client how many seconds to wait before trying again: the requests ahead of it over the rate the box drains them, rounded up, at least 1 s."},
	{Key: "headroom", Name: "Headroom", Words: []string{"memory headroom", "headroom", "device memory left free"},
		Text: "The share of the device's memory left free at the peak of a run: 1 - peak memory / device memory. An objective may ask for at least some headroom so that a longer prompt or a burst does not end in an out-of-memory error."},
	{Key: "recommendation-gates", Name: "Recommendation gates", Words: []string{"recommendation gates", "non-financial gates"},
		Text: "The questions besides cost that a decision to own a box must pass, each stated as passed or failed: data location, capability, contract, recovery and exit. A cheap box that fails one of them is not recommended on price alone."},
	{Key: "regression-gate", Name: "Regression gate", Words: []string{"regression gate"},
		Text: "The record of a fixed set of task cases a model (the baseline or a quantized or changed candidate) was checked on, and whether it passed, so that a faster model is not chosen at the price of worse answers. The exit check asks that the model chosen passed its gate; when only the baseline was tested, the baseline itself must be entered as a candidate with its gate, so that the choice of model is recorded and not assumed."},
	{Key: "f-local", Name: "F_local and V_local", Words: []string{"F_local", "V_local"},
		Text: "Self-hosting's costs in the crossover: F_local is the fixed monthly cost of a box (equipment, power, space, people), paid however many requests it serves; V_local is what each request adds on top, often nothing."},
	{Key: "v-api", Name: "F_api and V_api", Words: []string{"V_api", "F_api"},
		Text: "An API quote's costs in the crossover: V_api is what the API charges per request (its token prices times the workload's tokens); F_api is its fixed monthly fees, zero for a quote without any."},
	{Key: "crossover", Name: "Crossover", Words: []string{"crossover"},
		Text: "The monthly number of requests at which owning the box becomes cheaper than the API: (F_local - F_api) / (V_api - V_local), rounded up. Below it the API costs less; there is none when the API is cheaper per request at any volume."},
	{Key: "hybrid-plan", Name: "Hybrid plan", Words: []string{"hybrid plan", "hybrid"},
		Text: "Own enough boxes for the base of the month and send what they would refuse in the busy hours to the cheapest API. capplan prices every number of boxes from none to all and names the cheapest."},
	{Key: "littles-law", Name: "Little's law", Words: []string{"Little's law", "littles-law"},
		Text: "Requests in flight = arrival rate x time each request takes. It turns a rate test into the number of requests in flight the admission limit needs (11 req/s at 14 s each is about 154 in flight)."},
	{Key: "provider-view", Name: "Provider view", Words: []string{"Provider view"},
		Text: "The seller's question, for a team that sells tokens from its box: at its selling prices, what share of the box's capacity must be sold to cover its cost, and what margin the expected share leaves, beside what the box actually billed."},
	{Key: "fleet", Name: "Fleet", Words: []string{"fleet"},
		Text: "Several boxes, or several replicas on one box, serving one model behind a router, with a reserve of spare boxes for when one is down. Replicas rarely scale perfectly: a scaling factor, measured or typed, says how much k replicas serve over one."},
	{Key: "residency", Name: "Residency", Words: []string{"residency"},
		Text: "When several routes (models or uses) share one box: which stay resident in memory and which are switched in when asked (with their cold-start time), each route's memory budget, admitted load and queue policy, and whether together they fit the device's memory with headroom."},
	{Key: "reference-rows", Name: "Reference rows", Words: []string{"reference rows", "reference row"},
		Text: "Public benchmark figures (such as InferenceX's) shown beside the report's own results for comparison. They are never evidence: they move no envelope, admission limit, capacity, exit check or approval."},
	{Key: "soak", Name: "Soak", Words: []string{"soak"},
		Text: "A long run, hours rather than a minute, at the admission limit, to see that the box keeps its objective over time: availability, the share of requests within the objective, drift in latency from hour to hour, and the energy it used."},
	{Key: "showback", Name: "Showback", Words: []string{"showback"},
		Text: "Splitting a shared box's monthly cost among its tenants from a per-request usage log, by tokens, by requests or by time in flight, so each team sees its share. It can leave as a FOCUS 1.2 file for finance tools."},
	{Key: "freeze", Name: "Freeze and amendment", Words: []string{"freeze", "frozen", "amendment", "amend"},
		Text: "The test contract is frozen before any result is imported, recording who froze it and when, so that the objective cannot be bent to fit the results. After the freeze a change to the objective or workload is an amendment: it needs a reason, is kept and shown in the report and the export, and loosening the objective after results exist waits for a reviewer's written acceptance."},
}

// GlossaryURL is the glossary page's address; with a key, its entry.
func GlossaryURL(key string) string {
	if key == "" {
		return "/glossary"
	}
	return "/glossary#" + key
}

// glossaryIndex finds an entry by key.
var glossaryIndex = func() map[string]*GlossaryEntry {
	m := make(map[string]*GlossaryEntry, len(Glossary))
	for i := range Glossary {
		m[Glossary[i].Key] = &Glossary[i]
	}
	return m
}()

// GlossaryTerm is the entry of key, ok false when there is none.
func GlossaryTerm(key string) (GlossaryEntry, bool) {
	e, ok := glossaryIndex[key]
	if !ok {
		return GlossaryEntry{}, false
	}
	return *e, true
}

// glossarySeen holds the terms already linked on the page being rendered.
type glossarySeen struct{ linked map[string]bool }

type glossaryKey struct{}

// WithGlossary starts a page: Term and Prose link each term once within
// it, at its first use.
func WithGlossary(ctx context.Context) context.Context {
	return context.WithValue(ctx, glossaryKey{}, &glossarySeen{linked: map[string]bool{}})
}

// Glossed renders body as a page of its own: each term it names is
// linked once, at its first use.
func Glossed(body templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return body.Render(WithGlossary(ctx), w)
	})
}

// firstUse reports whether key is to be linked here, marking it linked.
// Outside a page (a fragment swapped in by htmx) every use is linked:
// the fragment cannot know what the page around it already links.
func firstUse(ctx context.Context, key string) bool {
	s, ok := ctx.Value(glossaryKey{}).(*glossarySeen)
	if !ok {
		return true
	}
	if s.linked[key] {
		return false
	}
	s.linked[key] = true
	return true
}

// proseWord is one spelling of a term in running text.
type proseWord struct {
	key, word string
}

// proseWords are every term's spellings, longest first so that "admission
// limit" is matched before "admission"; proseRE finds any of them as a
// whole word.
var proseWords, proseRE = func() ([]proseWord, *regexp.Regexp) {
	var ws []proseWord
	for _, e := range Glossary {
		for _, w := range e.Words {
			ws = append(ws, proseWord{e.Key, w})
		}
	}
	// Longest first: regexp alternation takes the first that matches.
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && len(ws[j].word) > len(ws[j-1].word); j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
	alts := make([]string, len(ws))
	for i, w := range ws {
		alts[i] = regexp.QuoteMeta(w.word)
	}
	return ws, regexp.MustCompile(`(?i)\b(?:` + strings.Join(alts, "|") + `)\b`)
}()

// proseKey is the key of a matched spelling.
func proseKey(match string) string {
	for _, w := range proseWords {
		if strings.EqualFold(w.word, match) {
			return w.key
		}
	}
	return ""
}

// prosePiece is a run of text, linked to a term when Key is set.
type prosePiece struct {
	Text, Key string
}

// splitProse cuts text into pieces at the terms it names.
func splitProse(text string) []prosePiece {
	var out []prosePiece
	last := 0
	for _, m := range proseRE.FindAllStringIndex(text, -1) {
		if m[0] > last {
			out = append(out, prosePiece{Text: text[last:m[0]]})
		}
		out = append(out, prosePiece{Text: text[m[0]:m[1]], Key: proseKey(text[m[0]:m[1]])})
		last = m[1]
	}
	if last < len(text) {
		out = append(out, prosePiece{Text: text[last:]})
	}
	return out
}
