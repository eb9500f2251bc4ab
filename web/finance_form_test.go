package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// Finance prices a USD quote with volume bands and tax on a EUR report:
// the library shows its bands and tax; attached, and with a dated rate
// saved, the API compares it with its USD original; the provider view and
// a line's tax are saved and computed; refusals name their fields;
// finance edits the demand scenarios. (What the report's page shows of
// each: web/view's TestMixedCurrencyQuoteOnThePage,
// TestProviderViewOnThePage, TestLineTaxOnThePage.)
func TestFinanceMixedCurrencyQuoteAndProviderView(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	fin := app.client("finance")

	q := workedQuote("Tiered USD API")
	q.Set("currency", "USD")
	q.Set("quote.tiers[0].from_m_tokens", "100")
	q.Set("quote.tiers[0].input_per_m_tokens", "8")
	q.Set("quote.tiers[0].output_per_m_tokens", "30")
	q.Set("quote.tax.rate", "0.2")
	q.Set("quote.tax.recoverable", "on")
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", q); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /quotes: %d\n%.800s", res.StatusCode, body)
	}
	qid := quoteID(t, app, "Tiered USD API")
	_, page := do(t, fin, http.MethodGet, fmt.Sprintf("%s/quotes/%d", app.srv.URL, qid), nil)
	if !strings.Contains(page, `data-testid="quote-tier-table"`) || !strings.Contains(testid(page, "quote-tax"), "20") {
		t.Fatalf("quote page lacks its bands or tax:\n%.2000s", page)
	}
	if res, body := post(t, app, fin, r.ID, "/quotes", url.Values{"quote_id": {fmt.Sprint(qid)}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("attach: %d\n%.800s", res.StatusCode, body)
	}

	settings := url.Values{"currency": {"EUR"}, "token_basis": {"contract"}, "max_boxes": {"2"}, "stale_after_days": {"90"}, "tax_basis": {"net"},
		"exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0.5"},
		"exchange_rates[0].rate.source": {"ECB reference rate"}, "exchange_rates[0].rate.evidence_date": {today}}
	if res, body := post(t, app, fin, r.ID, "/costs/settings", settings); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("settings: %d\n%.800s", res.StatusCode, body)
	}

	var api struct {
		Result struct {
			Quotes []struct {
				Name          string                 `json:"name"`
				Excluded      string                 `json:"excluded"`
				PerRequest    struct{ Exact string } `json:"per_request"`
				PerRequestOrg *struct {
					Currency string `json:"currency"`
					Amount   struct{ Exact string }
				} `json:"per_request_original"`
			} `json:"quotes"`
			Provider *struct {
				BreakEven float64 `json:"break_even_utilisation"`
			} `json:"provider"`
		} `json:"result"`
	}
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["finance"].ID, "sheet")
	if err != nil {
		t.Fatal(err)
	}
	_, body := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, r.ID), nil, "Authorization", "Bearer "+tok)
	if err := json.Unmarshal([]byte(body), &api); err != nil {
		t.Fatalf("%v\n%.500s", err, body)
	}
	found := false
	for _, qc := range api.Result.Quotes {
		if qc.Name != "Tiered USD API" {
			continue
		}
		found = true
		if qc.Excluded != "" || qc.PerRequestOrg == nil || qc.PerRequestOrg.Currency != "USD" {
			t.Errorf("API quote %+v: want compared, with its USD original", qc)
		}
	}
	if !found {
		t.Errorf("API lists no Tiered USD API quote")
	}
	if p := api.Result.Provider; p == nil || p.BreakEven <= 0 || p.BreakEven >= 1 {
		t.Errorf("API result.provider %+v: want the demo's break-even utilisation", p)
	}

	prov := url.Values{"provider.input_per_m_tokens": {"1.40"}, "provider.output_per_m_tokens": {"5.50"}, "provider.expected_utilisation": {"0.7"},
		"provider.source": {"price list"}, "provider.evidence_date": {today}}
	if res, body := post(t, app, fin, r.ID, "/provider", prov); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("provider: %d\n%.800s", res.StatusCode, body)
	}

	// Refusals name the field and keep nothing half-saved.
	bad := url.Values{"provider.input_per_m_tokens": {"-1"}, "provider.output_per_m_tokens": {"5"}, "provider.source": {"x"}, "provider.evidence_date": {today}}
	if res, body := post(t, app, fin, r.ID, "/provider", bad); res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-provider.input_per_m_tokens") == "" {
		t.Errorf("negative selling price: %d %s", res.StatusCode, testid(body, "err-provider.input_per_m_tokens"))
	}
	badRate := url.Values{"currency": {"EUR"}, "exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0"},
		"exchange_rates[0].rate.source": {"x"}, "exchange_rates[0].rate.evidence_date": {today}}
	if res, body := post(t, app, fin, r.ID, "/costs/settings", badRate); res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-exchange_rates[0].rate") == "" {
		t.Errorf("zero rate: %d", res.StatusCode)
	}
	// A rate dated tomorrow is refused at save, naming its date: evidence
	// of a cost cannot come from the future (docs/method.md, "Dated
	// evidence").
	tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format("2006-01-02")
	futureRate := url.Values{"currency": {"EUR"}, "exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0.5"},
		"exchange_rates[0].rate.source": {"ECB reference rate"}, "exchange_rates[0].rate.evidence_date": {tomorrow}}
	if res, body := post(t, app, fin, r.ID, "/costs/settings", futureRate); res.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(testid(body, "err-exchange_rates[0].rate.evidence_date"), "dated "+tomorrow+", after today") {
		t.Errorf("a rate dated tomorrow: %d %q", res.StatusCode, testid(body, "err-exchange_rates[0].rate.evidence_date"))
	}
	futureQuote := workedQuote("Tomorrow's prices")
	futureQuote.Set("evidence_date", tomorrow)
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", futureQuote); res.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(testid(body, "err-evidence_date"), "dated "+tomorrow+", after today") {
		t.Errorf("a quote dated tomorrow: %d %q", res.StatusCode, testid(body, "err-evidence_date"))
	}
	q2 := workedQuote("Bad bands")
	q2.Set("quote.tiers[0].from_m_tokens", "100")
	q2.Set("quote.tiers[0].input_per_m_tokens", "8")
	q2.Set("quote.tiers[1].from_m_tokens", "50")
	q2.Set("quote.tiers[1].input_per_m_tokens", "6")
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", q2); res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-quote.tiers[1].from_m_tokens") == "" {
		t.Errorf("bands out of order: %d", res.StatusCode)
	}

	// A tax per cost line: 20 % recoverable VAT on hosting is shown and,
	// on the net basis, not counted.
	var sh planner.SelfHostedCosts
	if _, err := app.store.Section(context.Background(), r.ID, reports.SecSelfHosted, &sh); err != nil {
		t.Fatal(err)
	}
	costs := url.Values{}
	view.SelfHostedValues(costs, sh)
	costs.Set("self_hosted.taxes.hosting.rate", "0.2")
	costs.Set("self_hosted.taxes.hosting.recoverable", "on")
	costs.Set("self_hosted.taxes.hosting.rate.source", "VAT law")
	costs.Set("self_hosted.taxes.hosting.rate.evidence_date", today)
	if res, body := post(t, app, fin, r.ID, "/costs", costs); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("line tax: %d\n%.800s", res.StatusCode, body)
	}
	costs.Set("self_hosted.taxes.power.rate", "1.5")
	costs.Set("self_hosted.taxes.power.rate.source", "x")
	costs.Set("self_hosted.taxes.power.rate.evidence_date", today)
	if res, body := post(t, app, fin, r.ID, "/costs", costs); res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-self_hosted.taxes.power.rate") == "" {
		t.Errorf("a tax rate of 150 %%: %d", res.StatusCode)
	}

	// Demand is finance's input.
	if res, body := post(t, app, fin, r.ID, "/scenarios", url.Values{"scenarios[0].name": {"low"}, "scenarios[0].monthly_requests": {"25,000"}, "scenarios[0].busy_hour_share": {"0.08"}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("finance scenario edit: %d\n%.500s", res.StatusCode, body)
	}
}
