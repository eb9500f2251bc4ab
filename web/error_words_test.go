package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A refusal names who may do the thing: a lead adding a library quote is
// told finance or an admin may, a lead who is not the report's editor is
// told who edits it.
func TestForbiddenNamesWhoMay(t *testing.T) {
	app := newTestApp(t)
	lead, lead2 := app.client("lead"), app.client("lead2")
	res, body := do(t, lead, "POST", app.srv.URL+"/quotes", url.Values{"name": {"x"}})
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "Only finance or an admin may do this; you are signed in as a lead.") {
		t.Errorf("lead posting a quote: %d, body lacks who may:\n%s", res.StatusCode, between(body, "<main", "</main>"))
	}
	res, _ = do(t, lead, "POST", app.srv.URL+"/reports", url.Values{"title": {"Mine"}})
	id := strings.TrimSuffix(strings.TrimPrefix(res.Header.Get("Location"), "/reports/"), "/contract")
	res, body = do(t, lead2, "POST", fmt.Sprintf("%s/reports/%s/admission", app.srv.URL, id), url.Values{"version": {"1"}})
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "Only the report&#39;s owner, the leads it names as editors, or an admin may change this report.") {
		t.Errorf("another lead saving admission: %d, body lacks who may:\n%s", res.StatusCode, between(body, "<main", "</main>"))
	}
	if strings.Contains(body, "You do not have permission") {
		t.Error("the refusal still says only that permission is lacking")
	}
}

// An unknown address shows one 404 page: a heading and one sentence naming
// the address, not "Not Found" twice; /favicon.ico is an icon and every
// page links the SVG one.
func TestOneNotFoundAndAFavicon(t *testing.T) {
	app := newTestApp(t)
	lead := app.client("lead")
	res, body := do(t, lead, "GET", app.srv.URL+"/no-such-page", nil)
	main := between(body, "<main", "</main>")
	if res.StatusCode != http.StatusNotFound || strings.Count(strings.ToLower(main), "not found") != 1 || !strings.Contains(main, "Nothing is at /no-such-page") {
		t.Errorf("404: %d, want one heading and a sentence naming the address:\n%s", res.StatusCode, main)
	}
	res, ico := do(t, lead, "GET", app.srv.URL+"/favicon.ico", nil)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/x-icon" || !strings.HasPrefix(ico, "\x00\x00\x01\x00") {
		t.Errorf("/favicon.ico: %d %s, want an ICO", res.StatusCode, res.Header.Get("Content-Type"))
	}
	_, page := do(t, lead, "GET", app.srv.URL+"/reports", nil)
	i := strings.Index(page, `<link rel="icon" type="image/svg+xml" href="`)
	if i < 0 {
		t.Fatal("the page links no icon")
	}
	href := strings.SplitN(page[i+len(`<link rel="icon" type="image/svg+xml" href="`):], `"`, 2)[0]
	res, svg := do(t, lead, "GET", app.srv.URL+href, nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(svg, "<svg") {
		t.Errorf("the linked icon %s: %d", href, res.StatusCode)
	}
}
