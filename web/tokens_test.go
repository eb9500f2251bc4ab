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
)

// TestTokenCostsAgree: the demo report's costs per million tokens, its
// frontier-comparable figure and the steps to the all-in figure read the
// same on the page, in the JSON API and in the workbook, all from the one
// planner result.
func TestTokenCostsAgree(t *testing.T) {
	app := newTestApp(t)
	id := seededDemo(t, app)

	body := reportJSON(t, app, id)
	var api struct {
		Result struct {
			Currency  string                   `json:"currency"`
			Scenarios []planner.ScenarioResult `json:"scenarios"`
			Frontier  planner.Frontier         `json:"frontier"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &api); err != nil {
		t.Fatal(err)
	}
	r := api.Result
	fr := r.Frontier
	g := fr.Shown()
	if fr.PerMTokens == nil || g == nil || len(g.Steps) < 5 {
		t.Fatalf("demo: no frontier figure or gap: %+v", fr)
	}
	if fr.GPUs != 1 || !strings.Contains(fr.GPUsSource, "1x H100") || fr.PriceTyped {
		t.Errorf("demo GPUs %v (%s), typed price %v", fr.GPUs, fr.GPUsSource, fr.PriceTyped)
	}

	c := app.client("reviewer")
	_, page := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	rowOf := func(testID string) string {
		i := strings.Index(page, `data-testid="`+testID+`"`)
		if i < 0 {
			t.Fatalf("page lacks %s", testID)
		}
		j := strings.Index(page[i:], "</tr>")
		return page[i : i+j]
	}
	sheet := "Per million tokens"
	_, xb := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, id), nil)
	f, err := excelize.OpenReader(strings.NewReader(xb))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	cur := " " + r.Currency
	options := 0
	for _, s := range r.Scenarios {
		for _, o := range s.Options {
			p := o.PerMTokens
			if p == nil {
				t.Fatalf("%s %s: no cost per million tokens", s.Scenario.Name, o.Option)
			}
			options++
			row := rowOf("perm-" + s.Scenario.Name + "-" + o.Option)
			var book []string
			for _, br := range rows {
				if len(br) >= 8 && br[0] == s.Scenario.Name && br[1] == o.Option {
					book = br
				}
			}
			if book == nil {
				t.Fatalf("workbook lacks %s %s", s.Scenario.Name, o.Option)
			}
			for i, fig := range []struct {
				id string
				m  planner.Money
			}{{"perm-1000", *o.CostPer1000}, {"perm-input", p.Input}, {"perm-output", p.Output}, {"perm-blended", p.Blended}} {
				if got := testid(row, fig.id); got != fig.m.Display() {
					t.Errorf("%s %s %s: page %q, API %q", s.Scenario.Name, o.Option, fig.id, got, fig.m.Display())
				}
				if got := book[4+i]; got != fig.m.Display()+cur {
					t.Errorf("%s %s %s: workbook %q, API %q", s.Scenario.Name, o.Option, fig.id, got, fig.m.Display()+cur)
				}
			}
		}
	}
	if options < 6 {
		t.Errorf("only %d options", options)
	}

	// The frontier figure and every step, page and workbook alike.
	if got := testid(page, "frontier-per-m"); got != fr.PerMTokens.Display()+" "+r.Currency {
		t.Errorf("frontier: page %q, API %q", got, fr.PerMTokens.Display())
	}
	named := func(name string) string {
		for _, dn := range f.GetDefinedName() {
			if dn.Name == name {
				ref := strings.ReplaceAll(dn.RefersTo[strings.LastIndex(dn.RefersTo, "!")+1:], "$", "")
				v, err := f.GetCellValue(sheet, ref)
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
		}
		t.Fatalf("no name %s", name)
		return ""
	}
	if got := named("Frontier_Per_M"); got != fr.PerMTokens.Display()+cur {
		t.Errorf("frontier: workbook %q, API %q", got, fr.PerMTokens.Display())
	}
	gn := "Gap_" + strings.ToUpper(g.Scenario[:1]) + g.Scenario[1:]
	if got := named(gn + "_All_In"); got != g.AllIn.Display()+cur {
		t.Errorf("all-in: workbook %q, API %q", got, g.AllIn.Display())
	}
	if !strings.Contains(html.UnescapeString(page), "<strong>"+g.AllIn.Display()+"</strong>") {
		t.Errorf("page lacks the all-in %s", g.AllIn.Display())
	}
	var steps []string
	for _, br := range rows {
		if len(br) >= 3 && strings.HasPrefix(br[0], "+ ") {
			steps = append(steps, br[0]+"="+br[2])
		}
	}
	for _, s := range g.Steps {
		if got := testid(page, "gap-"+s.Key); got != s.Amount.Display() {
			t.Errorf("step %s: page %q, API %q", s.Key, got, s.Amount.Display())
		}
		if want := "+ " + s.Label + "=" + s.Amount.Display() + cur; !strings.Contains(strings.Join(steps, "\n"), want) {
			t.Errorf("step %s: workbook lacks %q in %v", s.Key, want, steps)
		}
	}
	if got := html.UnescapeString(testid(page, "frontier-gap-text")); got != g.Scenario+": "+g.Text+"." {
		t.Errorf("gap text: page %q, API %q", got, g.Text)
	}
}

// TestContractOutputSpeed: the TPOT bound typed as an output speed per
// user is stored as the TPOT bound it sets, and refused in the user's
// words when it is not a positive speed or contradicts a TPOT typed
// beside it. (How it is shown is tested in web/view.)
func TestContractOutputSpeed(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "R")
	lead := app.client("lead")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	for _, tc := range []struct{ speed, tpot, want string }{
		{"0", "", "must be a positive number of tokens per second"},
		{"-20", "", "must be a positive number of tokens per second"},
		{"NaN", "", "must be a number"},
		{"20", "0.1", "give one of the two"},
	} {
		form := contractValues(1)
		form.Set("objective.min_speed_tok_s", tc.speed)
		form.Set("objective.tpot_max_s", tc.tpot)
		res, body := do(t, lead, "POST", base+"/contract", form)
		if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="err-objective.min_speed_tok_s"`) || !strings.Contains(body, tc.want) {
			t.Errorf("speed %q tpot %q: %d, want 422 naming the speed with %q", tc.speed, tc.tpot, res.StatusCode, tc.want)
		}
	}
	form := contractValues(1)
	form.Set("objective.min_speed_tok_s", "20")
	form.Set("objective.tpot_max_s", "0.05") // the same bound: accepted
	if res, body := do(t, lead, "POST", base+"/contract", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", res.StatusCode, testid(body, "form-errors"))
	}
	r, err := app.store.Report(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	o := r.Contract.Objective
	if o.TPOTMax == nil || *o.TPOTMax != 0.05 || !o.TPOTAsSpeed {
		t.Fatalf("stored TPOT %v as speed %v, want 0.05 s", o.TPOTMax, o.TPOTAsSpeed)
	}
}
