package web

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
	"capplan/web/reports"
)

// summaryItems are the lines of a refused form's error summary, unescaped.
func summaryItems(t *testing.T, body string) (head string, items []string) {
	t.Helper()
	m := regexp.MustCompile(`(?s)data-testid="form-errors"[^>]*>\s*<strong>([^<]*)</strong>\s*<ul>(.*?)</ul>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no error summary in\n%.1500s", body)
	}
	for _, li := range regexp.MustCompile(`<li>(.*?)</li>`).FindAllStringSubmatch(m[2], -1) {
		items = append(items, html.UnescapeString(li[1]))
	}
	return html.UnescapeString(m[1]), items
}

// internalKey is what an error line must never show: a form key.
var internalKey = regexp.MustCompile(`[a-z]_[a-z]|\[\d\]|\b(self_hosted|exchange_rates|scenarios)\b|^[a-z]`)

// Two bad fields give two errors, in one answer, each named by its label.
func TestFormsTwoBadFieldsTwoErrorsInLabels(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	lead, fin := app.client("lead"), app.client("finance")
	costs := workedCosts(today)
	costs.Set("self_hosted.hosting", "12x")
	costs.Set("self_hosted.backup.evidence_date", "last week")
	fr := frozenReport(t, app)
	amend := contractValues(fr.Version)
	amend.Set("objective.e2e_max_s", "20") // an amendment: needs a reason
	amend.Set("device_memory_gib", "eighty")
	for _, tc := range []struct {
		name  string
		c     *http.Client
		id    int64
		path  string
		form  url.Values
		wants []string
	}{
		{"costs", lead, id, "/costs", costs, []string{"Hosting", "Backup (evidence date)"}},
		{"settings", fin, id, "/costs/settings", url.Values{"currency": {"EURO"}, "exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0,8x"}},
			[]string{"Currency", "Exchange rate 1: rate"}},
		{"scenarios", lead, id, "/scenarios", url.Values{
			"scenarios[0].monthly_requests": {"lots"}, "scenarios[0].busy_hour_kind": {"day_share"}, "scenarios[0].busy_hour": {"0.1"},
			"scenarios[1].monthly_requests": {"1000"}, "scenarios[1].busy_hour_kind": {"day_share"}, "scenarios[1].busy_hour": {"3"}},
			[]string{"Scenario 1: monthly requests", "Scenario 2: busiest hour"}},
		{"amendment", lead, fr.ID, "/contract", amend, []string{"Device memory (GiB)", "Reason for the change"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := url.Values{}
			for k, v := range tc.form {
				f[k] = v
			}
			if f.Get("version") == "" {
				f.Set("version", version(t, app, tc.id))
			}
			res, body := do(t, tc.c, http.MethodPost, fmt.Sprintf("%s/reports/%d%s", app.srv.URL, tc.id, tc.path), f)
			if res.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422\n%.800s", res.StatusCode, body)
			}
			head, items := summaryItems(t, body)
			if head != "Please fix 2 fields:" || len(items) != 2 {
				t.Fatalf("summary %q %q, want two fields", head, items)
			}
			for i, want := range tc.wants {
				found := false
				for _, it := range items {
					label, _, _ := strings.Cut(it, ": ")
					if strings.HasPrefix(it, want+": ") || label == want {
						found = true
					}
				}
				if !found {
					t.Errorf("error %d: no line for %q in %q", i, want, items)
				}
			}
			for _, it := range items {
				if internalKey.MatchString(it) {
					t.Errorf("error line shows a form key or starts in lower case: %q", it)
				}
			}
		})
	}
}

// A decimal comma is read as one; commas grouping thousands stay so.
func TestNormalNumber(t *testing.T) {
	for in, want := range map[string]string{
		"0,86": "0.86", "12,5": "12.5", "1.250,50": "1250.50", "1,250.50": "1250.50", "80,000": "80000",
		"1,000,000": "1000000", " 2 400 ": "2400", "0.92": "0.92", "12x": "12x",
	} {
		if got := normalNumber(in); got != want {
			t.Errorf("normalNumber(%q) = %q, want %q", in, got, want)
		}
	}
}

// A EUR report's exchange rate typed with a decimal comma is saved as the
// number it is, and a self-hosted amount too (once read as 86).
func TestDecimalCommaAccepted(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	fin, lead := app.client("finance"), app.client("lead")
	settings := url.Values{"currency": {"EUR"}, "token_basis": {"contract"}, "max_boxes": {"2"}, "stale_after_days": {"90"}, "tax_basis": {"net"},
		"exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0,86"},
		"exchange_rates[0].rate.source": {"ECB reference rate"}, "exchange_rates[0].rate.evidence_date": {today}}
	if res, body := post(t, app, fin, id, "/costs/settings", settings); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("settings: %d\n%.800s", res.StatusCode, body)
	}
	costs := workedCosts(today)
	costs.Set("self_hosted.hosting", "180,50")
	if res, body := post(t, app, lead, id, "/costs", costs); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("costs: %d\n%.800s", res.StatusCode, body)
	}
	var set reports.Settings
	var sh planner.SelfHostedCosts
	if _, err := app.store.Section(t.Context(), id, reports.SecSettings, &set); err != nil {
		t.Fatal(err)
	}
	if _, err := app.store.Section(t.Context(), id, reports.SecSelfHosted, &sh); err != nil {
		t.Fatal(err)
	}
	if len(set.ExchangeRates) != 1 || !set.ExchangeRates[0].Rate.Amount.Equal(decimal.RequireFromString("0.86")) {
		t.Errorf("rate %+v, want 0.86", set.ExchangeRates)
	}
	if h := sh.Hosting; h == nil || !h.Amount.Equal(decimal.RequireFromString("180.5")) {
		t.Errorf("hosting %+v, want 180.5", h)
	}
}
