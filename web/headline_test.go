package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// seededDemo seeds the demo report as `make run` does, owned by the
// "admin" account, and returns its id.
func seededDemo(t testing.TB, app *testApp) int64 {
	t.Helper()
	ctx := context.Background()
	if _, err := app.store.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	if err := reports.SeedDemo(ctx, app.store, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	list, err := app.store.Reports(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("reports %v %v", list, err)
	}
	return list[0].ID
}

// reportJSON is the JSON API's answer for report id, read with a
// reviewer's token.
func reportJSON(t testing.TB, app *testApp, id int64) string {
	t.Helper()
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["reviewer"].ID, "read")
	if err != nil {
		t.Fatal(err)
	}
	res, body := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id), nil, "Authorization", "Bearer "+tok)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("API: %d %s", res.StatusCode, body)
	}
	return body
}

// TestHeadlineAgrees: the demo report's headline reads the same on the
// page, in the JSON API, in the list of reports and on the workbook's
// first sheet, all from the one planner.Headline.
func TestHeadlineAgrees(t *testing.T) {
	app := newTestApp(t)
	id := seededDemo(t, app)

	// The API's headline.
	body := reportJSON(t, app, id)
	var api struct {
		Result struct {
			Headline planner.Headline `json:"headline"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &api); err != nil {
		t.Fatal(err)
	}
	h := api.Result.Headline
	answers := map[string]planner.HeadlineAnswer{"serve": h.Serve, "admit": h.Admit, "own": h.Own, "decision": h.Decision}
	for name, a := range answers {
		if !a.Answered || a.Answer == "" {
			t.Errorf("demo: %s not answered: %+v", name, a)
		}
	}

	// The page says the same, each answer with its evidence link, above
	// everything else on the report.
	c := app.client("reviewer")
	_, page := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	for name, a := range answers {
		if got := html.UnescapeString(testid(page, "headline-"+name+"-answer")); got != "" {
			t.Errorf("headline %s answer is not in a <strong>: %q", name, got)
		}
		if !strings.Contains(html.UnescapeString(page), "<strong>"+a.Answer+"</strong>") {
			t.Errorf("page lacks the %s answer %q", name, a.Answer)
		}
		if !strings.Contains(page, `href="#`+a.Evidence+`" data-testid="headline-`+name+`-evidence"`) {
			t.Errorf("headline %s does not link to #%s", name, a.Evidence)
		}
		if !strings.Contains(page, `id="`+a.Evidence+`"`) {
			t.Errorf("headline %s links to #%s, which the page lacks", name, a.Evidence)
		}
	}
	if i, j := strings.Index(page, `data-testid="headline"`), strings.Index(page, `id="exitcheck"`); i < 0 || i > j {
		t.Errorf("the headline is not above the exit check (%d, %d)", i, j)
	}

	// The list: one line each.
	_, listPage := do(t, c, http.MethodGet, app.srv.URL+"/reports", nil)
	if got := html.UnescapeString(testid(listPage, fmt.Sprintf("headline-line-%d", id))); got != h.Line || got == "" {
		t.Errorf("list line = %q, want %q", got, h.Line)
	}

	// The workbook's first sheet.
	_, xb := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, id), nil)
	f, err := excelize.OpenReader(strings.NewReader(xb))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	first := f.GetSheetList()[0]
	rows, err := f.GetRows(first)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		if len(r) >= 2 {
			got[r[0]] = r[1]
		}
	}
	for name, a := range answers {
		if got[a.Question] != a.Answer {
			t.Errorf("workbook %s: %s = %q, want %q", first, a.Question, got[a.Question], a.Answer)
		}
		_ = name
	}
}

// TestHeadlineBlankReport: a new report answers nothing yet and says, for
// each answer, what is missing with a link to where it is entered.
func TestHeadlineBlankReport(t *testing.T) {
	app := newTestApp(t)
	id, err := app.store.CreateReport(context.Background(), app.users["lead"], "Blank")
	if err != nil {
		t.Fatal(err)
	}
	_, page := do(t, app.client("lead"), http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	text := html.UnescapeString(page)
	for _, name := range []string{"serve", "admit", "own", "decision"} {
		if !strings.Contains(page, `data-testid="headline-`+name+`" data-answered="false"`) {
			t.Errorf("blank report: %s is not marked unanswered", name)
		}
		if !strings.Contains(page, `data-testid="headline-`+name+`-missing"`) {
			t.Errorf("blank report: %s names nothing missing", name)
		}
	}
	for _, want := range []string{
		`The test contract is not frozen: freeze it before importing results. <a href="#contract">Go to Test contract</a>`,
		`No load-test results imported: import the benchmark files. <a href="#imports">Go to Imported results</a>`,
		`No demand scenarios: enter low, expected and peak demand with their busiest hour. <a href="#scenarios">Go to Demand scenarios</a>`,
		`<a href="#costs">Go to Costs</a>`,
		`<a href="#recommendation">Go to Recommendation</a>`,
		"What is missing:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("blank report lacks %q", want)
		}
	}
	for _, anchor := range []string{"contract", "imports", "scenarios", "costs", "recommendation"} {
		if !strings.Contains(page, `id="`+anchor+`"`) {
			t.Errorf("the headline links to #%s, which the page lacks", anchor)
		}
	}
}
