package web

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// registryAmount is a distinct amount within the field's bounds, so that a
// field read into another's place shows.
func registryAmount(f planner.Field, i int) string {
	a := decimal.NewFromInt(int64(i + 1)).Div(decimal.NewFromInt(100))
	if f.Min != nil {
		a = a.Add(f.Min.Value)
	}
	return a.String()
}

// inputValue is the value of the input named name in a page, and whether
// the input is there.
func inputValue(page, name string) (string, bool) {
	m := regexp.MustCompile(`<input name="` + regexp.QuoteMeta(name) + `" value="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		return "", false
	}
	return html.UnescapeString(m[1]), true
}

// TestRegistryFieldsInTheCostForm walks the self-hosted cost registry: every
// field is an input of the costs form, labelled as the registry says; a
// value typed into each is saved, validated and shown back in its own
// input; and an out-of-bounds value in each is refused, naming the field.
func TestRegistryFieldsInTheCostForm(t *testing.T) {
	app := newTestApp(t)
	id := moneyReport(t, app)
	lead := app.client("lead")
	report := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)

	form := url.Values{}
	want := map[string]string{}
	for i, f := range planner.SelfHostedFields {
		key := f.Key()
		switch {
		case f.Figure != nil:
			want[key] = registryAmount(f.Field, i)
			want[key+".unit"] = "u" + f.Name
			want[key+".source"] = "source of " + f.Name
			want[key+".evidence_date"] = time.Date(2026, 1, 1+i, 0, 0, 0, 0, time.UTC).Format("2006-01-02")
		case f.Int != nil:
			want[key] = fmt.Sprint(12 + i)
		case f.Text != nil:
			want[key] = f.Options[len(f.Options)-1]
		}
	}
	for k, v := range want {
		form.Set(k, v)
	}
	if res, body := post(t, app, lead, id, "/costs", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving every registry field: %d\n%s", res.StatusCode, between(body, `data-testid="form-errors"`, "</div>"))
	}
	_, page := do(t, lead, http.MethodGet, report+"/print", nil)
	page = between(withParts(t, lead, app.srv.URL, page), `data-testid="self-hosted-form"`, "</form>")
	if page == "" {
		t.Fatal("no self-hosted form on the report page")
	}
	for _, f := range planner.SelfHostedFields {
		key := f.Key()
		if !strings.Contains(page, html.EscapeString(f.FormLabel())) {
			t.Errorf("%s: the form lacks its label %q", key, f.FormLabel())
		}
		if f.Text != nil {
			if !strings.Contains(page, fmt.Sprintf(`<select name="%s"`, key)) || !strings.Contains(page, fmt.Sprintf(`<option value="%s" selected>`, want[key])) {
				t.Errorf("%s: the form does not show the choice %q", key, want[key])
			}
			continue
		}
		for _, name := range []string{key, key + ".unit", key + ".source", key + ".evidence_date"} {
			w, ok := want[name]
			if !ok {
				continue
			}
			got, present := inputValue(page, name)
			if !present {
				t.Errorf("the form has no input %s", name)
			} else if got != w {
				t.Errorf("%s shows %q after saving %q", name, got, w)
			}
		}
	}

	// Each field refuses what its bounds refuse, named by its key.
	for _, f := range planner.SelfHostedFields {
		bad := url.Values{}
		for k, v := range want {
			bad[k] = []string{v}
		}
		switch {
		case f.Figure != nil:
			bad.Set(f.Key(), "-1")
			if f.Min != nil {
				bad.Set(f.Key(), f.Min.Value.Sub(decimal.NewFromInt(1)).String())
			}
		case f.Int != nil:
			bad.Set(f.Key(), "-1")
		case f.Text != nil:
			bad.Set(f.Key(), "neither")
		}
		res, body := post(t, app, lead, id, "/costs", bad)
		if res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-"+f.Key()) == "" {
			t.Errorf("%s = %s: status %d, error %q; want 422 naming the field", f.Key(), bad.Get(f.Key()), res.StatusCode, testid(body, "err-"+f.Key()))
		}
	}
}

// TestRegistryFieldsInTheQuoteForm walks the quote registry the same way
// through the quote library's form.
func TestRegistryFieldsInTheQuoteForm(t *testing.T) {
	app := newTestApp(t)
	fin := app.client("finance")
	form := workedQuote("Registry")
	want := map[string]string{}
	for i, f := range planner.QuoteFields {
		want[f.Key()] = registryAmount(f.Field, i)
		form.Set(f.Key(), want[f.Key()])
	}
	if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving every quote field: %d\n%s", res.StatusCode, between(body, `data-testid="form-errors"`, "</div>"))
	}
	_, page := do(t, fin, http.MethodGet, fmt.Sprintf("%s/quotes/%d", app.srv.URL, quoteID(t, app, "Registry")), nil)
	for _, f := range planner.QuoteFields {
		if !strings.Contains(page, html.EscapeString(f.FormLabel())) {
			t.Errorf("%s: the quote form lacks its label %q", f.Key(), f.FormLabel())
		}
		if got, ok := inputValue(page, f.Key()); !ok || got != want[f.Key()] {
			t.Errorf("%s shows %q (present %v) after saving %q", f.Key(), got, ok, want[f.Key()])
		}
		bad := url.Values{}
		for k, v := range form {
			bad[k] = v
		}
		bad.Set("quote.name", "Refused")
		bad.Set(f.Key(), "-1")
		if res, body := do(t, fin, http.MethodPost, app.srv.URL+"/quotes", bad); res.StatusCode != http.StatusUnprocessableEntity || testid(body, "err-"+f.Key()) == "" {
			t.Errorf("%s = -1: status %d; want 422 naming the field", f.Key(), res.StatusCode)
		}
	}
}

// TestRegistryFieldsInTheProviderForm: the provider form has an input for
// every provider field of the registry, labelled as the registry says, and
// a value out of a field's bounds is refused under its key.
func TestRegistryFieldsInTheProviderForm(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	fin := app.client("finance")
	_, page := do(t, fin, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	page = withParts(t, fin, app.srv.URL, page)
	for _, fd := range planner.ProviderFields {
		if !strings.Contains(page, fmt.Sprintf(`name="%s"`, fd.Key())) || !strings.Contains(page, fd.FormLabel()) {
			t.Errorf("provider form lacks %s (%s)", fd.Key(), fd.FormLabel())
		}
	}
	form := url.Values{"provider.source": {"price list"}, "provider.evidence_date": {today},
		"provider.input_per_m_tokens": {"1"}, "provider.output_per_m_tokens": {"2"}, "provider.hours_per_month": {"800"}}
	if res, body := post(t, app, fin, r.ID, "/provider", form); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(testid(body, "err-provider.hours_per_month"), "744") {
		t.Errorf("800 selling hours a month: %d %q", res.StatusCode, testid(body, "err-provider.hours_per_month"))
	}
}
