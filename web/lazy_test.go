package web

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// lazyDiv is a closed part's placeholder as lazyPart writes it.
var lazyDiv = regexp.MustCompile(`<div class="lazy-part" hx-get="([^"]+)"[^>]*>.*?</div>`)

// withParts is body with every closed part fetched as the browser fetches
// it when its details is opened (htmx, as client c), in place of its
// placeholder: the page as it reads with every form open.
func withParts(tb testing.TB, c *http.Client, base, body string) string {
	tb.Helper()
	// A part may hold closed parts of its own (a candidate's rows).
	for range 3 {
		body = lazyDiv.ReplaceAllStringFunc(body, func(div string) string {
			u := html.UnescapeString(lazyDiv.FindStringSubmatch(div)[1])
			res, part := do(tb, c, http.MethodGet, base+u, nil, "HX-Request", "true")
			if res.StatusCode != http.StatusOK {
				tb.Fatalf("GET %s: %d\n%.300s", u, res.StatusCode, part)
			}
			return part
		})
	}
	return body
}

// TestLazyPartsOpenTheSameForms: the demo report carries its closed
// forms as placeholders, each fetched whole by the part it names; the
// fetched forms are the ones the page carried before (the same fields),
// a part is refused to a user who may not edit, and a part asked for
// without htmx is a page of its own with a way back.
func TestLazyPartsOpenTheSameForms(t *testing.T) {
	app := newTestApp(t)
	demo := demoReport(t, app)
	admin := app.client("admin")
	page := fmt.Sprintf("%s/reports/%d", app.srv.URL, demo.ID)
	_, body := do(t, admin, http.MethodGet, page+"/print", nil)
	parts := lazyDiv.FindAllStringSubmatch(body, -1)
	names := map[string]int{}
	for _, p := range parts {
		names[strings.SplitN(strings.TrimPrefix(html.UnescapeString(p[1]), fmt.Sprintf("/reports/%d/part/", demo.ID)), "?", 2)[0]]++
	}
	for _, want := range []string{"self-hosted-costs", "recommendation", "provider", "overload", "admission", "observed", "candidate-new", "candidate-edit", "candidate-observed"} {
		if names[want] == 0 {
			t.Errorf("the demo page has no closed %q part; parts: %v", want, names)
		}
	}
	if strings.Contains(body, `data-testid="self-hosted-form"`) {
		t.Error("the closed self-hosted form is on the page, not fetched when opened")
	}
	open := withParts(t, admin, app.srv.URL, body)
	for _, want := range []string{`data-testid="self-hosted-form"`, `data-testid="recommendation-form"`, `data-testid="provider-form"`, `data-testid="overload-form"`, `data-testid="admission-form"`, `name="self_hosted.purchase_price"`} {
		if !strings.Contains(open, want) {
			t.Errorf("the opened parts lack %s", want)
		}
	}
	if lazyDiv.MatchString(open) {
		t.Error("parts nested more than three deep, or a part that fetches itself")
	}

	// The reviewer edits nothing: the parts are refused, in words.
	u := html.UnescapeString(parts[0][1])
	res, refused := do(t, app.client("reviewer"), http.MethodGet, app.srv.URL+u, nil, "HX-Request", "true")
	if res.StatusCode != http.StatusForbidden || !strings.Contains(refused, "Only the report") {
		t.Errorf("a reviewer's GET %s: %d %.200s", u, res.StatusCode, refused)
	}
	// Without htmx: a page holding the form and a way back.
	res, alone := do(t, admin, http.MethodGet, fmt.Sprintf("%s/reports/%d/part/self-hosted-costs", app.srv.URL, demo.ID), nil)
	if res.StatusCode != http.StatusOK || !strings.Contains(alone, "<!doctype html>") || !strings.Contains(alone, `data-testid="self-hosted-form"`) || !strings.Contains(alone, `data-testid="back-to-report"`) {
		t.Errorf("the self-hosted part as a page: %d %.300s", res.StatusCode, alone)
	}
	// A part that names nothing.
	for _, u := range []string{"/part/no-such-part", "/part/observed?key=999999", "/part/candidate-edit?key=x"} {
		if res, _ := do(t, admin, http.MethodGet, fmt.Sprintf("%s/reports/%d%s", app.srv.URL, demo.ID, u), nil, "HX-Request", "true"); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", u, res.StatusCode)
		}
	}
}
