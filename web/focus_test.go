package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// focusDecimals are the FOCUS 1.2 columns of type Decimal the export
// writes; focusDates those of type Date/Time.
var (
	focusDecimals = []string{"BilledCost", "ContractedCost", "EffectiveCost", "ListCost", "PricingQuantity", "ConsumedQuantity"}
	focusDates    = []string{"BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd"}
	isoZ          = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$`)
	focusNumber   = regexp.MustCompile(`^-?\d+(\.\d+)?$`)
)

// TestShowbackFOCUSExport reads the demo's showback back from its FOCUS
// 1.2 CSV, in the browser's download and through the token API: every
// mandatory column is there, custom ones are x_-prefixed, dates are ISO
// 8601 in UTC with Z, decimals use a dot without grouping, the costs add
// up to the box's monthly cost, and each row is a Usage charge priced in
// tokens (or requests) with its in-objective requests.
func TestShowbackFOCUSExport(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	c := app.client("finance")
	_, page := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	if !strings.Contains(page, fmt.Sprintf(`/reports/%d/showback.focus.csv?meter=tokens`, r.ID)) {
		t.Fatal("the showback offers no FOCUS download")
	}
	tok, _ := app.store.CreateAPIToken(context.Background(), app.users["finance"].ID, "finops")
	var res struct {
		Result struct {
			Currency       string            `json:"currency"`
			ShowbackDetail *planner.Showback `json:"showback_detail"`
			Capacity       planner.Capacity  `json:"capacity"`
		} `json:"result"`
	}
	apiGet(t, app, tok, fmt.Sprintf("/api/v1/reports/%d", r.ID), &res)
	sb := res.Result.ShowbackDetail
	if sb == nil || sb.Monthly == nil || sb.Start == 0 {
		t.Fatalf("the demo's showback %+v", sb)
	}
	for _, meter := range []string{"tokens", "requests"} {
		for _, via := range []string{"browser", "api"} {
			var hres *http.Response
			var body string
			if via == "browser" {
				hres, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/showback.focus.csv?meter=%s", app.srv.URL, r.ID, meter), nil)
			} else {
				hres, body = do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d/showback.focus.csv?meter=%s", app.srv.URL, r.ID, meter), nil, "Authorization", "Bearer "+tok)
			}
			if hres.StatusCode != http.StatusOK || !strings.HasPrefix(hres.Header.Get("Content-Type"), "text/csv") {
				t.Fatalf("%s %s: %d %s", via, meter, hres.StatusCode, body)
			}
			recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			head := recs[0]
			for _, col := range planner.FocusMandatory {
				if !slices.Contains(head, col) {
					t.Errorf("mandatory column %s missing", col)
				}
			}
			known := append(append([]string{}, planner.FocusMandatory...), "ChargeFrequency", "ConsumedQuantity", "ConsumedUnit", "PricingCategory", "ResourceId", "ResourceName", "ResourceType", "ServiceSubcategory", "SkuId", "Tags")
			for _, col := range head {
				if !slices.Contains(known, col) && !strings.HasPrefix(col, "x_") {
					t.Errorf("column %s is neither FOCUS's nor x_-prefixed", col)
				}
			}
			col := func(row []string, name string) string { return row[slices.Index(head, name)] }
			if len(recs)-1 != len(sb.Gaps) {
				t.Fatalf("%d rows for %d tenants", len(recs)-1, len(sb.Gaps))
			}
			sum := decimal.Zero
			wantUnit := map[string]string{"tokens": "Tokens", "requests": "Requests"}[meter]
			for _, row := range recs[1:] {
				for _, d := range focusDates {
					if !isoZ.MatchString(col(row, d)) {
						t.Errorf("%s = %q, not ISO 8601 with Z", d, col(row, d))
					}
				}
				for _, d := range append(focusDecimals, "x_InObjectiveRequests") {
					if !focusNumber.MatchString(col(row, d)) {
						t.Errorf("%s = %q, not a decimal with a dot", d, col(row, d))
					}
				}
				if col(row, "ChargeCategory") != "Usage" || col(row, "PricingUnit") != wantUnit || col(row, "ConsumedUnit") != wantUnit ||
					col(row, "ServiceCategory") != "AI and Machine Learning" || col(row, "BillingCurrency") != res.Result.Currency || col(row, "ChargeClass") != "" {
					t.Errorf("row %v", row)
				}
				if col(row, "BilledCost") != col(row, "EffectiveCost") || col(row, "ListCost") != col(row, "ContractedCost") {
					t.Errorf("the costs of an owned box differ: %v", row)
				}
				var tags map[string]string
				if err := json.Unmarshal([]byte(col(row, "Tags")), &tags); err != nil || tags["tenant"] != col(row, "x_Tenant") {
					t.Errorf("Tags %q", col(row, "Tags"))
				}
				if !strings.HasPrefix(col(row, "ChargePeriodStart"), "20") || col(row, "ChargePeriodStart") >= col(row, "ChargePeriodEnd") {
					t.Errorf("charge period %s – %s", col(row, "ChargePeriodStart"), col(row, "ChargePeriodEnd"))
				}
				sum = sum.Add(decimal.RequireFromString(col(row, "BilledCost")))
			}
			// The shares' costs, each to the cent, add up to the month's cost
			// within a cent per tenant.
			if diff := sum.Sub(sb.Monthly.Exact).Abs(); diff.GreaterThan(decimal.NewFromFloat(0.01 * float64(len(sb.Gaps)))) {
				t.Errorf("%s: costs add to %s, the month costs %s", meter, sum, sb.Monthly.Exact)
			}
		}
	}
	// A meter FOCUS does not price, and a report with no showback, are
	// refused in words.
	hres, body := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/showback.focus.csv?meter=time-share", app.srv.URL, r.ID), nil)
	if hres.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "FOCUS prices showback by tokens or requests") {
		t.Errorf("time-share: %d %s", hres.StatusCode, between(body, "<main", "</main>"))
	}
	blank, _ := app.store.CreateReport(context.Background(), app.users["lead"], "No showback")
	hres, body = do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/showback.focus.csv", app.srv.URL, blank), nil)
	if hres.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "no showback to export") {
		t.Errorf("no showback: %d", hres.StatusCode)
	}
}

// TestShowbackFOCUSWorked holds the rows to a small worked example: two
// tenants at 75 % and 25 % of the tokens of a EUR 2,000 month, a log
// starting on 2026-11-20 and spanning 3 s, 96 % of requests in objective.
// The charge period is November (30 days, 2,592,000 s), so the log's
// quantities are scaled by 2,592,000 / 3 = 864,000 to cover it as the cost
// does: search 750 tokens in the log, 648,000,000 in the month, for 1,500
// EUR; chat 250 and 216,000,000 for 500 EUR. Cost / quantity is then a
// price a FinOps tool can read: 1,500 / 648 M = 500 / 216 M = 2.31 EUR per
// million tokens (over the log's 3 s it would read 2 EUR a token). Its
// in-objective requests: 1 x 864,000 x 0.96 = 829,440.
func TestShowbackFOCUSWorked(t *testing.T) {
	m := planner.NewShowbackMeter(0)
	start := 1795132800.0 // 2026-11-20T00:00:00Z
	for _, u := range []planner.UsageRecord{
		{Tenant: "search", Start: start, End: start + 1, PromptTokens: 500, OutputTokens: 250},
		{Tenant: "chat", Start: start + 2, End: start + 3, PromptTokens: 200, OutputTokens: 50},
	} {
		if err := m.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	monthly := planner.NewMoney(decimal.NewFromInt(2000))
	sb := m.Result(&monthly, "usage.jsonl")
	share := 0.96
	rows, err := planner.ShowbackFOCUS(planner.FocusInput{ReportID: 7, Title: "Shared box", Model: "llama-8b", Currency: "EUR", Showback: &sb, Meter: planner.MeterTokens, InObjectiveShare: &share})
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	get := func(i int, c string) string { return rows[i][slices.Index(head, c)] }
	// Tenants are sorted: chat first.
	if get(1, "x_Tenant") != "chat" || get(1, "BilledCost") != "500" || get(1, "PricingQuantity") != "216000000" ||
		get(2, "BilledCost") != "1500" || get(2, "ConsumedQuantity") != "648000000" || get(2, "x_InObjectiveRequests") != "829440" ||
		get(2, "x_MeteredQuantity") != "750" || get(2, "x_MeteredSpanSeconds") != "3" ||
		get(1, "ChargePeriodStart") != "2026-11-01T00:00:00Z" || get(1, "ChargePeriodEnd") != "2026-12-01T00:00:00Z" ||
		get(2, "SkuId") != "llm-inference-tokens" || get(2, "ServiceName") != "LLM inference: llama-8b" {
		t.Errorf("rows %v", rows)
	}
	// Cost / quantity, per million tokens, is the same price for both.
	for i := 1; i <= 2; i++ {
		cost, _ := decimal.NewFromString(get(i, "BilledCost"))
		qty, _ := decimal.NewFromString(get(i, "PricingQuantity"))
		if qty.IsZero() {
			t.Fatalf("row %d: no quantity", i)
		}
		if per := planner.DisplayMoney(cost.Div(qty).Mul(decimal.NewFromInt(1_000_000))); per != "2.31" {
			t.Errorf("%s: %s EUR per million tokens, want 2.31", get(i, "x_Tenant"), per)
		}
	}
}
