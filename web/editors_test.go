package web

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// The editors form answers alike for an e-mail without an account and one
// whose account is not a lead's: it tells no one who has an account.
func TestEditorsFormTellsNoAccounts(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/editors", app.srv.URL, r.ID)
	answer := func(email string) (int, string) {
		res, body := do(t, lead, http.MethodPost, u, url.Values{"editors": {email}, "version": {fmt.Sprint(r.Version)}})
		return res.StatusCode, testid(body, "error")
	}
	codeNone, msgNone := answer("nobody@example.com")
	codeRev, msgRev := answer("reviewer@example.com")
	if codeNone != http.StatusUnprocessableEntity || codeRev != codeNone {
		t.Errorf("status: unknown %d, reviewer %d", codeNone, codeRev)
	}
	want := func(email string) string {
		return `editors: no lead has the e-mail &#34;` + email + `&#34; (only leads edit reports)`
	}
	if msgNone != want("nobody@example.com") || msgRev != want("reviewer@example.com") {
		t.Errorf("answers differ beyond the e-mail:\n%q\n%q", msgNone, msgRev)
	}
	if code, _ := answer("lead2@example.com"); code != http.StatusSeeOther {
		t.Errorf("a lead as editor: %d", code)
	}
}
