package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// seedSoakMarkdown is a six-hour soak written up as Markdown: its summary
// (with the output tokens served), the hour-by-hour table and the energy
// summary (with the mean board power).
func seedSoakMarkdown() string {
	return `| Requests | 162,040 |
| Availability (excluding 429s) | 99.994% |
| Output tokens served | 63.0 million (2,906 tok/s average) |

| Hour | Requests | 429 | Failed | In SLO | TTFT p99 | TPOT p99 | Tok/s | GPU W | °C max |
|---|---|---|---|---|---|---|---|---|---|
| 1 | 17,422 | 2,164 | 1 | 99.99% | 271 ms | 37.5 ms | 1,825 | 444 | 58 |
| 2 | 26,748 | 2,444 | 3 | 100.00% | 286 ms | 37.3 ms | 2,861 | 518 | 58 |
| 3 | 36,421 | 3,108 | 2 | 99.95% | 326 ms | 38.6 ms | 3,943 | 592 | 59 |
| 4 | 36,480 | 2,834 | 1 | 99.95% | 338 ms | 39.5 ms | 3,953 | 598 | 60 |
| 5 | 27,347 | 2,216 | 2 | 99.96% | 295 ms | 36.6 ms | 2,994 | 527 | 57 |
| 6 | 17,622 | 1,831 | 0 | 99.97% | 279 ms | 38.0 ms | 1,863 | 447 | 59 |

| Average GPU board power | 520 W |
| GPU rent for the six hours | $25.74 |
`
}

// TestSeedSoakAndBilledRevenue: a six-hour soak sold as a token API. The
// soak gives 99.994 % availability, 99.97 % within the objective, 520 W,
// 11.2 MJ (3.12 kWh), 63,000,000 output tokens and 5.61 per joule; the
// box rents for 25.74 over its 6 selling hours, sells 1,700 input and 420
// output tokens a request at 0.06 and 0.25 per 1M, 11.3 req/s at 62 %:
// modelled revenue 31.33 (17.8 % margin), and its ledger billed 30.71
// (16.2 %). The page, the API and the workbook say the same; a ledger
// total without its source is refused.
func TestSeedSoakAndBilledRevenue(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	ctx := context.Background()
	lead, fin := app.client("lead"), app.client("finance")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)

	if res, body := postEvidence(t, lead, base+"/evidence/soak", map[string]string{"version": fmt.Sprint(r.Version)}, "soak.md", []byte(seedSoakMarkdown())); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("soak: %d\n%.800s", res.StatusCode, body)
	}
	r, _ = app.store.Report(ctx, r.ID)
	rent := planner.SelfHostedCosts{EquipmentMode: planner.EquipRent,
		RentPerHour: planner.Fig("4.29", "EUR/h", "cloud invoice", today), RentHoursPerMonth: planner.Fig("6", "h/month", "cloud invoice", today)}
	if err := app.store.SaveSection(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "costs", Section: "costs"}, reports.SecSelfHosted, rent); err != nil {
		t.Fatal(err)
	}
	prov := url.Values{"provider.input_per_m_tokens": {"0.06"}, "provider.output_per_m_tokens": {"0.25"}, "provider.expected_utilisation": {"0.62"},
		"provider.capacity_rate": {"11.3"}, "provider.input_tokens": {"1700"}, "provider.output_tokens": {"420"}, "provider.hours_per_month": {"6"},
		"provider.billed_revenue": {"30.71"}, "provider.source": {"test config"}, "provider.evidence_date": {today}}
	// The ledger total needs its own source and date.
	res, body := post(t, app, fin, r.ID, "/provider", prov)
	if res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-provider.billed_revenue.source") == "" || testid(body, "err-provider.billed_revenue.evidence_date") == "" {
		t.Fatalf("a ledger total without its source: %d %q", res.StatusCode, testid(body, "err-provider.billed_revenue.source"))
	}
	prov.Set("provider.billed_revenue.source", "gateway billing ledger")
	prov.Set("provider.billed_revenue.evidence_date", today)
	if res, body := post(t, app, fin, r.ID, "/provider", prov); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("provider: %d\n%.800s", res.StatusCode, body)
	}

	_, page := do(t, fin, http.MethodGet, base+"/print", nil)
	for id, want := range map[string]string{
		"soak-availability": "99.994 %", "soak-in-slo": "99.97 %", "soak-mean-power": "520 W", "soak-energy": "11.2 MJ (3.12 kWh)",
		"soak-output-tokens": "63,000,000", "soak-tokens-per-joule": "5.61",
		"provider-modelled-revenue": "31.33", "provider-margin": "17.8 %", "provider-billed-revenue": "30.71", "provider-billed-source": "gateway billing ledger, " + today,
		"provider-billed-margin": "4.97 against 25.74 of cost, 16.2 % of billed revenue",
	} {
		if got := testid(page, id); !strings.Contains(got, want) {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	// The form shows the ledger's own source, not the prices'.
	if page = withParts(t, fin, app.srv.URL, page); !strings.Contains(page, `name="provider.billed_revenue.source" value="gateway billing ledger"`) {
		t.Errorf("the provider form lacks the ledger's source")
	}

	tok, err := app.store.CreateAPIToken(ctx, app.users["finance"].ID, "sheet")
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Result struct {
			Provider struct {
				BilledRevenue     struct{ Exact string } `json:"billed_revenue"`
				BilledMarginShare float64                `json:"billed_margin_share"`
				MarginShare       float64                `json:"margin_at_expected_utilisation"`
			} `json:"provider"`
			Soak struct {
				EnergyMJ       float64 `json:"energy_mj"`
				EnergyKWh      float64 `json:"energy_kwh"`
				TokensPerJoule float64 `json:"output_tokens_per_joule"`
				OutputTokens   float64 `json:"output_tokens"`
			} `json:"soak"`
		} `json:"result"`
	}
	_, body = do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, r.ID), nil, "Authorization", "Bearer "+tok)
	if err := json.Unmarshal([]byte(body), &api); err != nil {
		t.Fatalf("%v\n%.500s", err, body)
	}
	p, s := api.Result.Provider, api.Result.Soak
	if p.BilledRevenue.Exact != "30.71" || math.Abs(p.BilledMarginShare-4.97/30.71) > 1e-9 || math.Abs(p.MarginShare-(0.000207*244080*0.62-25.74)/(0.000207*244080*0.62)) > 1e-9 {
		t.Errorf("API provider = %+v", p)
	}
	if math.Abs(s.EnergyMJ-11.232) > 1e-9 || math.Abs(s.EnergyKWh-3.12) > 1e-9 || math.Abs(s.TokensPerJoule-63e6/11.232e6) > 1e-9 || s.OutputTokens != 63e6 {
		t.Errorf("API soak = %+v", s)
	}

	_, xb := do(t, fin, http.MethodGet, base+"/export.xlsx", nil)
	f, err := excelize.OpenReader(strings.NewReader(xb))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for name, want := range map[string]string{"Provider_Billed_Margin_Share": "16.2%", "Provider_Margin_Share": "17.8%", "Soak_Energy_MJ": "11.2", "Soak_Energy_KWh": "3.12", "Soak_Tokens_Per_Joule": "5.61"} {
		if got := namedValue(t, f, name); got != want {
			t.Errorf("workbook %s = %q, want %q", name, got, want)
		}
	}
}

// namedValue is a named cell's value as the workbook shows it.
func namedValue(t *testing.T, f *excelize.File, name string) string {
	t.Helper()
	for _, dn := range f.GetDefinedName() {
		if dn.Name != name {
			continue
		}
		sheet, ref, _ := strings.Cut(dn.RefersTo, "!")
		v, err := f.GetCellValue(strings.Trim(sheet, "'"), strings.ReplaceAll(ref, "$", ""))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	t.Fatalf("no named range %s", name)
	return ""
}
