package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestDemoSaysWhereCostsComeFrom: the demo's comparison chooses its FP8
// candidate while capacity and costs come from the report's own matrix:
// the API says so, in the planner's sentence (the page's costs and
// candidates sections: web/view's TestDemoSaysWhereCostsComeFrom).
func TestDemoSaysWhereCostsComeFrom(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
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
