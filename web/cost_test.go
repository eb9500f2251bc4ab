package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// today is a fresh evidence date for the test inputs.
var today = time.Now().UTC().Format("2006-01-02")

// moneyReport creates a report owned by "lead" whose contract prices 1,000
// input and 500 output tokens per request.
func moneyReport(t testing.TB, app *testApp) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := app.store.CreateReport(ctx, app.users["lead"], "Money")
	if err != nil {
		t.Fatal(err)
	}
	c := planner.Contract{Workload: planner.Workload{PromptTokens: 1000, OutputTokens: 500}}
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: app.users["lead"].ID, Action: "contract edited", Section: "contract"}, c, nil); err != nil {
		t.Fatal(err)
	}
	return id
}

func version(t testing.TB, app *testApp, id int64) string {
	t.Helper()
	r, err := app.store.Report(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(r.Version)
}

// workedCosts are self-hosted inputs that add up to EUR 2,000 a month:
// 24,000 over 24 months (1,000) + 500 W x 730 h x 0.40 /kWh (146) + 54 +
// 100 + 50 + 25 + 15 + 10 + 8 h x 75 /h labour (600) + 0 downtime.
func workedCosts(date string) url.Values {
	v := url.Values{"self_hosted.equipment_mode": {"purchase"}, "self_hosted.depreciation_months": {"24"}}
	for field, amount := range map[string]string{
		"purchase_price": "24000", "power_watts": "500", "power_price_per_kwh": "0.40",
		"facilities": "54", "hosting": "100", "support": "50", "software": "25", "monitoring": "15", "backup": "10",
		"labour_hours_per_month": "8", "labour_rate": "75", "downtime_allowance": "0",
	} {
		f := "self_hosted." + field
		v.Set(f, amount)
		v.Set(f+".source", "invoice "+field)
		v.Set(f+".evidence_date", date)
	}
	return v
}

// workedQuote prices 1,000 input tokens at 10 and 500 output tokens at 40
// per million: 0.03 a request, no monthly charges; 80,000 requests cost
// EUR 2,400.
func workedQuote(name string) url.Values {
	return url.Values{
		"quote.name": {name}, "quote.provider": {"Provider X"}, "quote.model": {"model-y"}, "region": {"eu-west"},
		"currency": {"EUR"}, "source": {"price page"}, "evidence_date": {today}, "terms": {"no data retention"},
		"quote.input_per_m_tokens": {"10"}, "quote.output_per_m_tokens": {"40"}, "quote.retry_rate": {"0"},
	}
}

var expectedScenario = url.Values{
	"scenarios[1].monthly_requests": {"80,000"}, "scenarios[1].busy_hour_kind": {"day_share"}, "scenarios[1].busy_hour": {"0.3"},
}

// testid returns the text of the first element with that data-testid.
func testid(body, id string) string {
	m := regexp.MustCompile(`data-testid="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1])
}

// post sends a form with the report's current version.
func post(t testing.TB, app *testApp, c *http.Client, id int64, path string, form url.Values) (*http.Response, string) {
	t.Helper()
	f := url.Values{}
	for k, v := range form {
		f[k] = v
	}
	f.Set("version", version(t, app, id))
	return do(t, c, http.MethodPost, fmt.Sprintf("%s/reports/%d%s", app.srv.URL, id, path), f)
}

// quoteID finds a library quote by name.
func quoteID(t testing.TB, app *testApp, name string) int64 {
	t.Helper()
	return quoteNamed(t, app, name).ID
}

// quoteNamed is the library's quote of that name; the test ends when there
// is none.
func quoteNamed(t testing.TB, app *testApp, name string) store.Quote {
	t.Helper()
	qs, err := app.store.Quotes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if q.Q.Name == name {
			return q
		}
	}
	t.Fatalf("no quote %q", name)
	return store.Quote{}
}

// workedExample fills a report with the worked example of docs/method.md:
// lead types the costs and the expected scenario, finance adds and attaches
// the quote.
func workedExample(t testing.TB, app *testApp) int64 {
	t.Helper()
	id := moneyReport(t, app)
	lead, fin := app.client("lead"), app.client("finance")
	steps := []struct {
		c    *http.Client
		path string
		form url.Values
	}{
		{lead, "/costs/settings", url.Values{"currency": {"EUR"}, "token_basis": {"contract"}, "max_boxes": {"1"}}},
		{lead, "/costs", workedCosts(today)},
		{lead, "/scenarios", expectedScenario},
	}
	for _, s := range steps {
		if res, body := post(t, app, s.c, id, s.path, s.form); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d\n%s", s.path, res.StatusCode, body)
		}
	}
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", workedQuote("API X")); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /quotes: %d\n%s", res.StatusCode, body)
	}
	if res, body := post(t, app, fin, id, "/quotes", url.Values{"quote_id": {fmt.Sprint(quoteID(t, app, "API X"))}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("attach: %d\n%s", res.StatusCode, body)
	}
	return id
}

// The worked example in the JSON API: the numbers of docs/method.md from
// the planner's Result, money as decimal strings. (The same figures on
// the page: web/view's TestCostWorkedExampleOnPage.)
func TestCostWorkedExampleInAPI(t *testing.T) {
	app := newTestApp(t)
	id := workedExample(t, app)

	tok, err := app.store.CreateAPIToken(context.Background(), app.users["finance"].ID, "sheet")
	if err != nil {
		t.Fatal(err)
	}
	res, body := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id), nil, "Authorization", "Bearer "+tok)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("API: %d %s", res.StatusCode, body)
	}
	var got struct {
		Report struct {
			ID    int64  `json:"id"`
			Title string `json:"title"`
		} `json:"report"`
		Inputs planner.Inputs `json:"inputs"`
		Result planner.Result `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if got.Report.ID != id || got.Report.Title != "Money" || len(got.Inputs.Quotes) != 1 {
		t.Errorf("report header %+v, %d quotes", got.Report, len(got.Inputs.Quotes))
	}
	if len(got.Result.Scenarios) != 1 {
		t.Fatalf("scenarios: %+v", got.Result.Scenarios)
	}
	want := map[string]string{"self-hosted": "25", "API X": "30"}
	for _, o := range got.Result.Scenarios[0].Options {
		if o.CostPer1000 == nil || o.CostPer1000.Rounded.String() != want[o.Option] || o.SuccessfulRequests != 80_000 {
			t.Errorf("API option %s: per 1,000 %v for %d requests, want %s", o.Option, o.CostPer1000, o.SuccessfulRequests, want[o.Option])
		}
	}
	if !strings.Contains(body, `"rounded":"2000.00"`) || !strings.Contains(body, `"rounded":"25.00"`) {
		t.Errorf("money is not served as decimal strings:\n%.400s", body)
	}
}

func TestCostAPIAuth(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	ctx := context.Background()
	tok, _ := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "ci")
	revoked, _ := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "old")
	toks, _ := app.store.APITokens(ctx, app.users["reviewer"].ID)
	for _, tk := range toks {
		if tk.Name == "old" {
			if err := app.store.RevokeAPIToken(ctx, app.users["reviewer"].ID, tk.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	u := fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id)
	for _, tc := range []struct {
		name string
		url  string
		hdr  []string
		want int
	}{
		{"no token", u, nil, http.StatusUnauthorized},
		{"revoked token", u, []string{"Authorization", "Bearer " + revoked}, http.StatusUnauthorized},
		{"session cookie is not a token", u, nil, http.StatusUnauthorized},
		{"unknown report", fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id+100), []string{"Authorization", "Bearer " + tok}, http.StatusNotFound},
		{"reviewer reads", u, []string{"Authorization", "Bearer " + tok}, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := http.DefaultClient
			if tc.name == "session cookie is not a token" {
				c = app.client("reviewer")
			}
			res, body := do(t, c, http.MethodGet, tc.url, nil, tc.hdr...)
			if res.StatusCode != tc.want {
				t.Errorf("status %d, want %d: %s", res.StatusCode, tc.want, body)
			}
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
				t.Errorf("content type %q", res.Header.Get("Content-Type"))
			}
		})
	}
}

func TestCostValidationNamesFields(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	lead, fin := app.client("lead"), app.client("finance")
	with := func(base url.Values, kv ...string) url.Values {
		v := url.Values{}
		for k, vs := range base {
			v[k] = vs
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "" {
				v.Del(kv[i])
			} else {
				v.Set(kv[i], kv[i+1])
			}
		}
		return v
	}
	costs := workedCosts(today)
	for _, tc := range []struct {
		name  string
		c     *http.Client
		path  string // below the report, or absolute when it starts with "!"
		form  url.Values
		field string
		msg   string
	}{
		{"negative amount", lead, "/costs", with(costs, "self_hosted.hosting", "-5"), "self_hosted.hosting", "must not be negative"},
		{"amount not a number", lead, "/costs", with(costs, "self_hosted.hosting", "12x"), "self_hosted.hosting", "must be a number"},
		{"labour missing", lead, "/costs", with(costs, "self_hosted.labour_rate", ""), "self_hosted.labour_rate", "operator labour must be typed"},
		{"evidence date malformed", lead, "/costs", with(costs, "self_hosted.backup.evidence_date", "last week"), "self_hosted.backup.evidence_date", "YYYY-MM-DD"},
		{"unit naming another currency without a rate", lead, "/costs", with(costs, "self_hosted.hosting.unit", "USD/month"), "self_hosted.hosting",
			`names USD, but the report is in EUR and has no dated EUR/USD exchange rate: type the amount in EUR, or enter a USD rate`},
		{"PUE below 1", lead, "/costs", with(costs, "self_hosted.pue", "0.8"), "self_hosted.pue", "at least 1"},
		{"no depreciation months", lead, "/costs", with(costs, "self_hosted.depreciation_months", ""), "self_hosted.depreciation_months", "at least 1 month"},
		{"currency missing", fin, "/costs/settings", url.Values{"currency": {""}}, "currency", "required"},
		{"currency malformed", fin, "/costs/settings", url.Values{"currency": {"EURO"}}, "currency", "three-letter"},
		{"negative boxes", fin, "/costs/settings", url.Values{"currency": {"EUR"}, "max_boxes": {"-1"}}, "max_boxes", "must not be negative"},
		{"negative demand", lead, "/scenarios", url.Values{"scenarios[1].monthly_requests": {"-10"}, "scenarios[1].busy_hour_share": {"0.1"}}, "scenarios[1].monthly_requests", "must not be negative"},
		{"demand missing", lead, "/scenarios", url.Values{"scenarios[2].busy_hour_share": {"0.1"}}, "scenarios[2].monthly_requests", "required"},
		{"share above 1", lead, "/scenarios", url.Values{"scenarios[0].monthly_requests": {"1000"}, "scenarios[0].busy_hour_share": {"2"}}, "scenarios[0].busy_hour", "at most 1"},
		{"day share above 1", lead, "/scenarios", url.Values{"scenarios[0].monthly_requests": {"1000"}, "scenarios[0].busy_hour_kind": {"day_share"}, "scenarios[0].busy_hour": {"150 %"}}, "scenarios[0].busy_hour", "at most 1"},
		{"peak rate missing", lead, "/scenarios", url.Values{"scenarios[1].monthly_requests": {"1000"}, "scenarios[1].busy_hour_kind": {"peak_rate"}}, "scenarios[1].busy_hour", "req/s"},
		{"peak rate not a number", lead, "/scenarios", url.Values{"scenarios[1].monthly_requests": {"1000"}, "scenarios[1].busy_hour_kind": {"peak_rate"}, "scenarios[1].busy_hour": {"fast"}}, "scenarios[1].busy_hour", "request rate in req/s"},
		{"gate note without verdict", lead, "/recommendation", url.Values{"decision": {"keep"}, "gates[0].note": {"EU only"}}, "gates[0].verdict", "pass or fail"},
		{"review date malformed", lead, "/recommendation", url.Values{"decision": {"keep"}, "review_date": {"soon"}}, "review_date", "YYYY-MM-DD"},
		{"quote without output price", fin, "!/quotes", with(workedQuote("Q"), "quote.output_per_m_tokens", ""), "quote.output_per_m_tokens", "required"},
		{"quote price unit in another currency", fin, "!/quotes", with(workedQuote("Q"), "quote.input_per_m_tokens.unit", "USD/1M tokens"), "quote.input_per_m_tokens",
			"names USD, but the quote is in EUR: type the price in EUR"},
		{"quote negative price", fin, "!/quotes", with(workedQuote("Q"), "quote.input_per_m_tokens", "-1"), "quote.input_per_m_tokens", "must not be negative"},
		{"quote retry rate as percent", fin, "!/quotes", with(workedQuote("Q"), "quote.retry_rate", "2"), "quote.retry_rate", "fraction below 1"},
		{"quote without date", fin, "!/quotes", with(workedQuote("Q"), "evidence_date", ""), "evidence_date", "required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var res *http.Response
			var body string
			if p, ok := strings.CutPrefix(tc.path, "!"); ok {
				res, body = do(t, tc.c, http.MethodPost, app.srv.URL+p, tc.form)
			} else {
				res, body = post(t, app, tc.c, id, tc.path, tc.form)
			}
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422\n%.500s", res.StatusCode, body)
			}
			if got := testid(body, "err-"+tc.field); !strings.Contains(got, tc.msg) {
				t.Errorf("error for %s = %q, want it to contain %q", tc.field, got, tc.msg)
			}
		})
	}
	// Nothing refused was saved.
	if v := version(t, app, id); v != "2" {
		t.Errorf("version %s after refused posts, want 2", v)
	}
}

// Labour typed as zero is stored as a typed zero, not as a line left
// blank, and an old evidence date is kept as typed. (How the page marks
// them: web/view's TestCostLabourZeroAndStaleEvidence.)
func TestCostLabourZeroAndStaleEvidence(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	costs := workedCosts(today)
	costs.Set("self_hosted.labour_hours_per_month", "0")
	costs.Set("self_hosted.labour_rate", "0")
	costs.Set("self_hosted.hosting.evidence_date", "2020-01-01")
	if res, body := post(t, app, app.client("finance"), id, "/costs", costs); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d\n%s", res.StatusCode, body)
	}
	var sh planner.SelfHostedCosts
	if _, err := app.store.Section(t.Context(), id, reports.SecSelfHosted, &sh); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]*planner.Figure{"labour hours": sh.LabourHoursPerMonth, "labour rate": sh.LabourRate} {
		if f == nil || !f.Amount.IsZero() {
			t.Errorf("%s stored as %+v, want a typed zero", name, f)
		}
	}
	if sh.Hosting == nil || sh.Hosting.EvidenceDate != "2020-01-01" {
		t.Errorf("hosting stored as %+v, want its 2020 date", sh.Hosting)
	}
}

func TestCostPermissions(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	for _, tc := range []struct {
		who, path string
		form      url.Values
		want      int
	}{
		{"finance", "/costs", workedCosts(today), http.StatusSeeOther},
		{"lead", "/costs/settings", url.Values{"currency": {"USD"}}, http.StatusSeeOther},
		{"reviewer", "/costs", workedCosts(today), http.StatusForbidden},
		{"lead2", "/costs", workedCosts(today), http.StatusForbidden},
		{"reviewer", "/costs/settings", url.Values{"currency": {"EUR"}}, http.StatusForbidden},
		{"finance", "/scenarios", expectedScenario, http.StatusSeeOther}, // demand is finance's input
		{"reviewer", "/scenarios", expectedScenario, http.StatusForbidden},
		{"lead2", "/scenarios", expectedScenario, http.StatusForbidden},
		{"finance", "/recommendation", url.Values{"decision": {"stop"}}, http.StatusForbidden},
		{"lead", "/scenarios", expectedScenario, http.StatusSeeOther},
		{"lead", "/recommendation", url.Values{"decision": {"keep"}, "owner": {"Ann"}}, http.StatusSeeOther},
	} {
		t.Run(tc.who+" "+tc.path, func(t *testing.T) {
			res, body := post(t, app, app.client(tc.who), id, tc.path, tc.form)
			if res.StatusCode != tc.want {
				t.Errorf("status %d, want %d\n%.300s", res.StatusCode, tc.want, body)
			}
		})
	}
}

func TestQuoteAttachDetachInHistory(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	fin := app.client("finance")
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", workedQuote("API X")); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d %s", res.StatusCode, body)
	}
	if res, _ := do(t, app.client("lead"), http.MethodPost, app.srv.URL+"/quotes", workedQuote("API Y")); res.StatusCode != http.StatusForbidden {
		t.Errorf("a lead created a quote: %d", res.StatusCode)
	}
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", workedQuote("api x")); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(body, "err-quote.name"), "already") {
		t.Errorf("duplicate name: %d %q", res.StatusCode, testid(body, "err-quote.name"))
	}
	qid := quoteID(t, app, "API X")
	if res, body := post(t, app, fin, id, "/quotes", url.Values{"quote_id": {fmt.Sprint(qid)}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("attach: %d %s", res.StatusCode, body)
	}
	if res, _ := post(t, app, fin, id, "/quotes", url.Values{"quote_id": {fmt.Sprint(qid)}}); res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("attached twice: %d", res.StatusCode)
	}
	// Everyone reads the library; an edit keeps who changed it.
	_, lib := do(t, app.client("reviewer"), http.MethodGet, app.srv.URL+"/quotes", nil)
	if !strings.Contains(lib, "API X") || !strings.Contains(lib, "finance") {
		t.Errorf("library page lacks the quote or its editor")
	}
	edit := workedQuote("API X")
	edit.Set("quote.output_per_m_tokens", "50")
	if res, body := do(t, fin, http.MethodPost, fmt.Sprintf("%s/quotes/%d", app.srv.URL, qid), edit); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", res.StatusCode, body)
	}
	// htmx detach swaps the costs section and the history out of band.
	res, body := do(t, fin, http.MethodPost, fmt.Sprintf("%s/reports/%d/quotes/%d/detach", app.srv.URL, id, qid),
		url.Values{"version": {version(t, app, id)}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `id="costs"`) || !strings.Contains(body, `hx-swap-oob="true"`) {
		t.Errorf("htmx detach: %d\n%.300s", res.StatusCode, body)
	}
	hs, err := app.store.History(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, h := range hs {
		actions = append(actions, h.Action+" by "+h.User)
	}
	all := strings.Join(actions, "\n")
	for _, want := range []string{"quote attached: API X by finance", "quote detached: API X by finance"} {
		if !strings.Contains(all, want) {
			t.Errorf("history lacks %q:\n%s", want, all)
		}
	}
}

func TestCostConflictKeepsTypedValues(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	// Finance saves the self-hosted costs first, from the same version 2.
	first := workedCosts(today)
	first.Set("self_hosted.purchase_price", "30000")
	first.Set("version", "2")
	if res, _ := do(t, app.client("finance"), http.MethodPost, fmt.Sprintf("%s/reports/%d/costs", app.srv.URL, id), first); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("first save: %d", res.StatusCode)
	}
	costs := workedCosts(today)
	costs.Set("version", "2") // stale: finance's save changed the same section
	res, body := do(t, app.client("lead"), http.MethodPost, fmt.Sprintf("%s/reports/%d/costs", app.srv.URL, id), costs)
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, `data-testid="conflict"`) || !strings.Contains(body, `value="24000"`) {
		t.Errorf("stale save: %d\n%.300s", res.StatusCode, body)
	}
}

// The busiest hour typed as a share of the day (as a percentage), as a
// peak rate and as a share of the month: each saved with its kind. (How
// the page shows them and gives them back: web/view's
// TestScenarioBusyHourKinds.)
func TestScenarioBusyHourKinds(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	lead := app.client("lead")
	res, body := post(t, app, lead, id, "/scenarios", url.Values{
		// 36,500 a month is 1,200 a day: 10 % of it in the busiest hour is 2.4 times the average rate.
		"scenarios[0].monthly_requests": {"36,500"}, "scenarios[0].busy_hour_kind": {"day_share"}, "scenarios[0].busy_hour": {"10 %"},
		"scenarios[1].monthly_requests": {"36,500"}, "scenarios[1].busy_hour_kind": {"peak_rate"}, "scenarios[1].busy_hour": {"0.05"},
		// 8 % of the month in one hour: 2,920 requests, more than an average day's 1,200.
		"scenarios[2].monthly_requests": {"36,500"}, "scenarios[2].busy_hour_kind": {"month_share"}, "scenarios[2].busy_hour": {"0.08"},
	})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d\n%.800s", res.StatusCode, body)
	}
	var ss []planner.Scenario
	if _, err := app.store.Section(t.Context(), id, reports.SecScenarios, &ss); err != nil {
		t.Fatal(err)
	}
	want := []planner.Scenario{
		{Name: "low", MonthlyRequests: 36_500, BusyHourKind: planner.BusyDayShare, BusyHourShare: 0.1},
		{Name: "expected", MonthlyRequests: 36_500, BusyHourKind: planner.BusyPeakRate, PeakRate: 0.05},
		{Name: "peak", MonthlyRequests: 36_500, BusyHourKind: planner.BusyMonthShare, BusyHourShare: 0.08},
	}
	if len(ss) != len(want) {
		t.Fatalf("stored scenarios %+v", ss)
	}
	for i, w := range want {
		g := ss[i]
		if g.Name != w.Name || g.MonthlyRequests != w.MonthlyRequests || g.Kind() != w.BusyHourKind || g.BusyHourShare != w.BusyHourShare || g.PeakRate != w.PeakRate {
			t.Errorf("scenario %d stored as %+v, want %+v", i, g, w)
		}
	}
}
