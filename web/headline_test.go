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

// TestHeadlineAgrees: the demo report's headline reads the same in the
// JSON API, in the list of reports and on the workbook's first sheet, all
// from the one planner.Headline (the page's is web/view's
// TestHeadlineShowsThePlannersAnswers).
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

	c := app.client("reviewer")

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
