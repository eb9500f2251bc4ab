package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
	"capplan/web/store"
)

func init() { store.BcryptCost = 4 } // fast hashes in tests

// identities are who the route table is walked with: no session, then each
// role; "lead" owns the report, "lead2" is a lead who does not.
var identities = []string{"", "admin", "lead", "lead2", "reviewer", "finance"}

// routeAccess says who may use each route. Every registered route must be
// listed: a new route without an entry fails the test.
var routeAccess = map[string]string{
	"GET /favicon.ico":                           "* anon",
	"GET /healthz":                               "* anon",
	"GET /readyz":                                "* anon",
	"GET /metrics":                               "* anon", // behind the metrics token when one is set
	"GET /static/*":                              "* anon",
	"GET /login":                                 "* anon",
	"POST /login":                                "* anon",
	"POST /logout":                               "*",
	"GET /glossary":                              "* anon",
	"GET /":                                      "*",
	"GET /reports":                               "*",
	"GET /reports/new":                           "admin lead lead2",
	"POST /reports":                              "admin lead lead2",
	"GET /reports/:id":                           "*",
	"GET /reports/:id/history":                   "*",
	"GET /reports/:id/contract":                  "*",
	"GET /reports/:id/results":                   "*",
	"GET /reports/:id/costs":                     "*",
	"GET /reports/:id/decision":                  "*",
	"GET /reports/:id/evidence":                  "*",
	"GET /reports/:id/review":                    "*",
	"GET /reports/:id/print":                     "*",
	"GET /reports/:id/section/:name":             "*",
	"GET /reports/:id/part/:name":                "admin lead", // the report's closed forms (walked with "overload")
	"GET /reports/:id/exitcheck":                 "*",
	"POST /reports/:id/title":                    "admin lead",
	"POST /reports/:id/editors":                  "admin lead",
	"GET /reports/:id/contract/edit":             "admin lead",
	"POST /reports/:id/contract":                 "admin lead",
	"POST /reports/:id/freeze":                   "admin lead",
	"POST /reports/:id/contract/rows":            "admin lead",
	"POST /reports/:id/imports":                  "admin lead",
	"POST /reports/:id/imports/:iid/remove":      "admin lead",
	"GET /reports/:id/imports/:iid/file":         "*",
	"GET /reports/:id/rows/:rid/provenance":      "*",
	"POST /api/v1/reports/:id/results":           "admin lead",
	"POST /api/v1/reports/:id/reference":         "admin lead",
	"POST /reports/:id/submit":                   "admin lead",
	"POST /reports/:id/withdraw":                 "admin lead",
	"POST /reports/:id/approve":                  "admin reviewer",
	"POST /reports/:id/loosening/accept":         "admin reviewer",
	"POST /reports/:id/amendment/accept":         "admin reviewer",
	"POST /reports/:id/send-back":                "admin reviewer",
	"POST /reports/:id/revise":                   "admin lead",
	"POST /reports/:id/comments":                 "*",
	"GET /reports/:id/export.xlsx":               "*",
	"GET /reports/:id/matrix.csv":                "*",
	"GET /reports/:id/imports":                   "*",
	"POST /reports/:id/rows/:rid/observed":       "admin lead",
	"POST /reports/:id/admission":                "admin lead",
	"POST /reports/:id/overload":                 "admin lead",
	"POST /reports/:id/candidates":               "admin lead",
	"POST /reports/:id/candidates/:cid":          "admin lead",
	"POST /reports/:id/candidates/:cid/remove":   "admin lead",
	"POST /reports/:id/residency":                "admin lead",
	"POST /reports/:id/evidence/:kind":           "admin lead",
	"POST /reports/:id/evidence/:kind/remove":    "admin lead",
	"POST /reports/:id/evidence/demand/accept":   "admin lead",
	"POST /reports/:id/reference":                "admin lead",
	"POST /reports/:id/reference/row":            "admin lead",
	"POST /reports/:id/reference/remove":         "admin lead",
	"GET /compare":                               "*",
	"GET /compare.xlsx":                          "*",
	"GET /quotes":                                "*",
	"POST /quotes":                               "admin finance",
	"GET /quotes/:qid":                           "*",
	"POST /quotes/import":                        "admin finance",
	"GET /quotes/imports/:iid":                   "*",
	"POST /quotes/:qid":                          "admin finance",
	"POST /reports/:id/costs/settings":           "admin lead finance",
	"POST /reports/:id/costs":                    "admin lead finance",
	"POST /reports/:id/quotes":                   "admin lead finance",
	"POST /reports/:id/quotes/:qid/detach":       "admin lead finance",
	"POST /reports/:id/scenarios":                "admin lead finance",
	"POST /reports/:id/provider":                 "admin lead finance",
	"POST /reports/:id/fleet":                    "admin lead finance",
	"POST /reports/:id/recommendation":           "admin lead",
	"GET /api/v1/reports/:id":                    "*",
	"GET /reports/:id/showback.focus.csv":        "*",
	"GET /api/v1/reports/:id/showback.focus.csv": "*",
	"POST /api/v1/quotes/import":                 "admin finance",
	"GET /users":                                 "admin",
	"POST /users":                                "admin",
	"POST /users/:uid/role":                      "admin",
	"POST /users/:uid/password":                  "admin",
	"GET /account":                               "*",
	"POST /account/password":                     "*",
	"POST /account/tokens":                       "*",
	"POST /account/tokens/:tid/revoke":           "*",

	// A candidate's own result files.
	"POST /reports/:id/candidates/:cid/imports": "admin lead",
}

// allowed reports whether identity who may use a route per its spec.
func allowed(spec, who string) bool {
	if who == "" {
		return strings.Contains(spec, "anon")
	}
	if strings.HasPrefix(spec, "*") {
		return true
	}
	return strings.Contains(" "+spec+" ", " "+who+" ")
}

// denied reports whether a response refused the request: 401, 403, or a
// redirect to the login form.
func denied(res *http.Response) bool {
	if res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden {
		return true
	}
	// Anonymous page views are sent to the login form; a logout's redirect
	// there is its success.
	return res.Request.Method == http.MethodGet && res.StatusCode == http.StatusSeeOther &&
		strings.HasPrefix(res.Header.Get("Location"), "/login")
}

func TestEveryRouteAuthorization(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	param := regexp.MustCompile(`:[a-z]+|\*`)

	walkQuote, err := app.store.SaveQuote(ctx, app.users["finance"].ID, store.Quote{Q: planner.Quote{Name: "walk quote"}, Currency: "EUR"})
	if err != nil {
		t.Fatal(err)
	}
	routes := (&Server{store: app.store}).echo().Routes()
	seen := map[string]bool{}
	for _, r := range routes {
		key := r.Method + " " + r.Path
		if seen[key] || r.Method == "echo_route_not_found" {
			continue
		}
		seen[key] = true
		spec, ok := routeAccess[key]
		if !ok {
			t.Errorf("route %s has no entry in routeAccess: say who may use it", key)
			continue
		}
		for _, who := range identities {
			t.Run(key+" as "+orAnon(who), func(t *testing.T) {
				// A fresh report per request, owned by "lead", so that one
				// request (a freeze, say) cannot change what the next sees.
				id, err := app.store.CreateReport(ctx, app.users["lead"], "Route walk")
				if err != nil {
					t.Fatal(err)
				}
				tok, err := app.store.CreateAPIToken(ctx, app.users[orDefault(who, "lead")].ID, "walk")
				if err != nil {
					t.Fatal(err)
				}
				toks, _ := app.store.APITokens(ctx, app.users[orDefault(who, "lead")].ID)
				_ = tok
				path := param.ReplaceAllStringFunc(r.Path, func(p string) string {
					switch p {
					case ":id":
						return fmt.Sprint(id)
					case ":uid":
						return fmt.Sprint(app.users["finance"].ID)
					case ":iid":
						return fmt.Sprint(walkImport(t, app, id).importID)
					case ":rid":
						return fmt.Sprint(walkImport(t, app, id).rowID)
					case ":tid":
						return fmt.Sprint(toks[len(toks)-1].ID)
					case ":cid":
						return fmt.Sprint(walkCandidate(t, app, id))
					case ":qid":
						return fmt.Sprint(walkQuote)
					case ":name":
						return "overload"
					case "*":
						return "app.css"
					}
					return p
				})
				var form url.Values
				if r.Method != http.MethodGet {
					form = url.Values{"version": {"1"}}
				}
				var hdr []string
				if strings.HasPrefix(path, "/api/") && who != "" {
					hdr = []string{"Authorization", "Bearer " + tok} // the API takes tokens, not sessions
				}
				res, body := do(t, app.client(who), r.Method, app.srv.URL+path, form, hdr...)
				want := allowed(spec, who)
				if strings.Contains(spec, "anon") {
					// Public routes refuse nobody; a wrong password's 401 is an answer.
					if res.StatusCode == http.StatusForbidden {
						t.Errorf("%s %s as %s: 403", r.Method, path, orAnon(who))
					}
				} else if got := !denied(res); got != want {
					t.Errorf("%s %s as %s: status %d (Location %q), want allowed=%v\n%.300s", r.Method, path, orAnon(who), res.StatusCode, res.Header.Get("Location"), want, body)
				}
				if res.StatusCode >= 500 {
					t.Errorf("%s %s as %s: status %d", r.Method, path, orAnon(who), res.StatusCode)
				}
			})
		}
	}
	for key := range routeAccess {
		if !seen[key] {
			t.Errorf("routeAccess lists %s, which is not a route", key)
		}
	}
}

func orAnon(who string) string { return orDefault(who, "anonymous") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
