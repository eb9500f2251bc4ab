package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestDemoSaysWhereCostsComeFrom: the demo's comparison chooses its FP8
// candidate while capacity and costs come from the report's own matrix:
// the costs section and the candidates' decision say so, from the planner's
// sentence, and so does the API.
func TestDemoSaysWhereCostsComeFrom(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	_, page := do(t, app.client("reviewer"), "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	costs := testid(sectionOf(page, "costs"), "cost-source")
	near := testid(sectionOf(page, "candidates"), "candidate-cost-source")
	if !strings.Contains(costs, "report&#39;s own matrix (meta-llama/Llama-3.1-8B-Instruct)") || !strings.Contains(costs, "not from the matrix of") {
		t.Errorf("costs section: %q", costs)
	}
	if near != costs {
		t.Errorf("beside the candidates' choice: %q, in the costs: %q", near, costs)
	}
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["reviewer"].ID, "read")
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Result struct {
			Capacity struct {
				Source     string `json:"source"`
				SourceText string `json:"source_text"`
			} `json:"capacity"`
		} `json:"result"`
	}
	apiGet(t, app, tok, fmt.Sprintf("/api/v1/reports/%d", r.ID), &api)
	if api.Result.Capacity.Source != "report" || !strings.Contains(api.Result.Capacity.SourceText, "not from the matrix of") {
		t.Errorf("API capacity source %q: %q", api.Result.Capacity.Source, api.Result.Capacity.SourceText)
	}
}
