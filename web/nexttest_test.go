package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// The API carries the next test the envelope proposes where the ceiling
// (8) and the first failure (10) are not adjacent, 9 streams with the
// requests it needs, its GPU minutes and the GuideLLM command, and each
// row's confidence (docs/method.md, "The next test", "Confidence"); the
// envelope section's wording of it is tested in web/view.
func TestAPIProposesTheNextTest(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["reviewer"].ID, "read")
	if err != nil {
		t.Fatal(err)
	}
	var api struct {
		Result struct {
			Matrix []struct {
				BoundsNote      string `json:"bounds_note"`
				SuccessInterval *struct {
					Lower float64 `json:"lower"`
					Text  string  `json:"text"`
				} `json:"success_interval"`
			} `json:"matrix"`
			Envelope struct {
				Next *struct {
					Runs []struct {
						Load     float64 `json:"load"`
						Requests int     `json:"requests"`
						GuideLLM string  `json:"guidellm"`
					} `json:"runs"`
					GPUMinutes float64 `json:"gpu_minutes"`
				} `json:"next"`
			} `json:"envelope"`
		} `json:"result"`
	}
	apiGet(t, app, tok, fmt.Sprintf("/api/v1/reports/%d", id), &api)
	n := api.Result.Envelope.Next
	if n == nil || len(n.Runs) != 1 || n.Runs[0].Load != 9 || n.Runs[0].Requests != 100 || n.GPUMinutes <= 0 || n.Runs[0].GuideLLM == "" {
		t.Errorf("API next test %+v", n)
	}
	if len(api.Result.Matrix) == 0 || !strings.Contains(api.Result.Matrix[0].BoundsNote, "cannot be computed from a summary") ||
		api.Result.Matrix[0].SuccessInterval == nil || !strings.Contains(api.Result.Matrix[0].SuccessInterval.Text, "95 % CI") {
		t.Errorf("API row confidence %+v", api.Result.Matrix)
	}
}

// The confidence of the verdicts is a contract field: empty is 95 %, a
// typed level is kept, one outside 50 to 100 % is refused by name.
func TestContractConfidenceField(t *testing.T) {
	v := contractValues(0)
	c, errs := contractForm(v)
	if len(errs) > 0 || c.ConfidenceOrDefault() != 0.95 {
		t.Fatalf("empty: %v %v", c.Confidence, errs)
	}
	v.Set("confidence", "90")
	if c, errs = contractForm(v); len(errs) > 0 || c.Confidence != 0.9 {
		t.Errorf("90 %%: %v %v", c.Confidence, errs)
	}
	v.Set("confidence", "120")
	if _, errs = contractForm(v); !strings.Contains(errs["confidence"], "between 50 % and 100 %") {
		t.Errorf("120 %%: %v", errs)
	}
}
