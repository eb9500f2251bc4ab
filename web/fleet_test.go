package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
)

// fleetAPI is what the API says of the fleet and the scenarios it sizes.
type fleetAPI struct {
	Result struct {
		Fleet     *planner.Fleet    `json:"fleet"`
		Scenarios []json.RawMessage `json:"scenarios"`
		Headline  planner.Headline  `json:"headline"`
	} `json:"result"`
}

// TestFleetAgrees: the demo without a fleet computes as before (no fleet
// in the API); with one saved (a typed scaling factor of 1.8 for 2
// replicas, N+1) the API and the workbook give every scenario the same
// boxes needed, reserve included, and the same cost per 1,000, and the
// API says the limit is per replica; bad input is refused in the form's
// words and saves nothing; a blank topology removes the fleet and the
// figures return. (The page's fleet figures, from the same Result:
// web/view's TestFleetOnThePage.)
func TestFleetAgrees(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id := seededDemo(t, app)
	tok, err := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "read")
	if err != nil {
		t.Fatal(err)
	}
	fin := app.client("finance")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	api := func() (fleetAPI, []planner.ScenarioResult, string) {
		t.Helper()
		_, body := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id), nil, "Authorization", "Bearer "+tok)
		var a fleetAPI
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			t.Fatalf("%v\n%.300s", err, body)
		}
		var ss []planner.ScenarioResult
		for _, raw := range a.Result.Scenarios {
			var s planner.ScenarioResult
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatal(err)
			}
			ss = append(ss, s)
		}
		return a, ss, body
	}

	// Without a fleet: as today.
	before, beforeScen, body := api()
	if before.Result.Fleet != nil || strings.Contains(body, `"fleet":`) || strings.Contains(body, `"sizing":`) {
		t.Fatalf("the demo has a fleet: %.300s", body)
	}

	// Refused in the user's words, nothing saved.
	form := url.Values{"fleet.topology": {planner.TopologyBoxes}, "fleet.scaling": {"0"}, "fleet.scaling_replicas": {"2"},
		"fleet.scaling_source": {"vendor sizing note"}, "fleet.scaling_date": {today}, "fleet.reserve": {"-1"}}
	res, body := post(t, app, fin, id, "/fleet", form)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad fleet: %d", res.StatusCode)
	}
	for key, want := range map[string]string{
		"err-fleet.scaling": "the scaling factor must be above 0",
		"err-fleet.reserve": "the reserve must be 0 or more boxes (1 for N+1), got -1",
	} {
		if got := html.UnescapeString(testid(body, key)); !strings.Contains(got, want) {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
	if !strings.Contains(html.UnescapeString(body), "Scaling factor: the scaling factor must be above 0") {
		t.Errorf("the error summary does not name the scaling factor")
	}
	if a, _, _ := api(); a.Result.Fleet != nil {
		t.Fatal("a refused fleet was saved")
	}

	// A typed factor of 1.8 for 2 replicas and N+1.
	form.Set("fleet.scaling", "1.8")
	form.Set("fleet.reserve", "1")
	if res, body := post(t, app, fin, id, "/fleet", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("fleet: %d\n%.800s", res.StatusCode, body)
	}
	after, scen, _ := api()
	fl := after.Result.Fleet
	if fl == nil || fl.ScalingFrom != planner.ScalingTyped || fl.Scaling == nil || *fl.Scaling != 1.8 || fl.Reserve == nil || *fl.Reserve != 1 {
		t.Fatalf("API fleet %+v", fl)
	}
	_, xb := do(t, fin, http.MethodGet, base+"/export.xlsx", nil)
	f, err := excelize.OpenReader(strings.NewReader(xb))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, s := range scen {
		name := s.Scenario.Name
		if s.Sizing == nil || s.BoxesNeeded == nil || *s.BoxesNeeded != s.Sizing.Serving+1 || s.Sizing.Reserve != 1 {
			t.Fatalf("%s: API sizing %+v", name, s.Sizing)
		}
		if s.Options[0].Boxes != *s.BoxesNeeded {
			t.Errorf("%s: self-hosted pays %d boxes of %d", name, s.Options[0].Boxes, *s.BoxesNeeded)
		}
		// More boxes cost more per 1,000 than the demo without a reserve.
		if !s.Options[0].CostPer1000.Exact.GreaterThan(beforeScen[i].Options[0].CostPer1000.Exact) {
			t.Errorf("%s: the reserve is not paid for: %s vs %s", name, s.Options[0].CostPer1000.Exact, beforeScen[i].Options[0].CostPer1000.Exact)
		}
		boxes, _ := namedCellValue(t, f, "Scenario_"+strings.ToUpper(name[:1])+name[1:]+"_Fleet_Boxes")
		if boxes != strconv.Itoa(*s.BoxesNeeded) {
			t.Errorf("%s: workbook Fleet boxes %q, API %d", name, boxes, *s.BoxesNeeded)
		}
		sc, _ := excelize.CoordinatesToCellName(5, i+2)
		if got, _ := f.GetCellValue("Scenarios", sc); got != strconv.Itoa(*s.BoxesNeeded) {
			t.Errorf("%s: workbook Scenarios boxes %q, API %d", name, got, *s.BoxesNeeded)
		}
		pc, _ := excelize.CoordinatesToCellName(9, i+2)
		if got, _ := f.GetCellValue("Scenarios", pc); !strings.Contains(got, s.Options[0].CostPer1000.Display()) {
			t.Errorf("%s: workbook per 1,000 %q, API %s", name, got, s.Options[0].CostPer1000.Display())
		}
	}
	if !strings.Contains(fl.AdmissionText, "The limit is per replica") {
		t.Errorf("API admission per replica %q", fl.AdmissionText)
	}
	for _, d := range after.Result.Headline.Serve.Details {
		if strings.Contains(d, "busiest hour") && !strings.Contains(d, "in reserve") {
			t.Errorf("headline line without the reserve: %q", d)
		}
	}

	// A blank topology removes the fleet: the figures are the demo's again.
	if res, body := post(t, app, fin, id, "/fleet", url.Values{"fleet.topology": {""}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove fleet: %d\n%.800s", res.StatusCode, body)
	}
	again, _, _ := api()
	if again.Result.Fleet != nil {
		t.Fatal("the fleet stayed")
	}
	a, _ := json.Marshal(before.Result.Scenarios)
	b, _ := json.Marshal(again.Result.Scenarios)
	if string(a) != string(b) {
		t.Errorf("the scenarios changed after the fleet was removed:\n%s\n%s", a, b)
	}
}

// namedCellValue is a named cell's value as the workbook holds it.
func namedCellValue(t *testing.T, f *excelize.File, name string) (string, error) {
	t.Helper()
	for _, dn := range f.GetDefinedName() {
		if dn.Name != name {
			continue
		}
		sheet, ref, _ := strings.Cut(dn.RefersTo, "!")
		return f.GetCellValue(strings.Trim(sheet, "'"), strings.ReplaceAll(ref, "$", ""))
	}
	t.Fatalf("no defined name %s", name)
	return "", nil
}

// A second run at 8 streams against two replicas, typed as such in its
// row's form, stops counting toward the envelope and measures the fleet's
// scaling factor beside the one-replica row at 8 (its rate over theirs);
// a count of 0 is refused in the form's words. (The page's measured
// factor: web/view's TestFleetScalingMeasuredOnThePage.)
func TestFleetMeasuredFromTypedReplicas(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := seedMatrix(t, app)
	lead := app.client("lead")
	sha := fmt.Sprintf("%064x", id+200)
	two := matrixRows(sha)[3] // 8 streams, 8/7 req/s on one replica
	two.Source.File, two.RequestRate = "two-replicas.json", planner.F(8.0/7*1.8)
	addRows(t, app.store, id, app.users["lead"].ID, 0, "two-replicas.json", sha, []planner.Row{two})
	stored, err := app.store.Rows(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var rid int64
	for _, sr := range stored {
		if sr.Row.Source.File == "two-replicas.json" {
			rid = sr.ID
		}
	}
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	obs := func(n string) (*http.Response, string) {
		return do(t, lead, http.MethodPost, fmt.Sprintf("%s/rows/%d/observed", base, rid), url.Values{"version": {reportVersion(t, app, id)},
			"replicas": {n}, "headroom": {"20"}, "peak_memory_gib": {"64"}})
	}
	if res, body := obs("0"); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(html.UnescapeString(body), "the replicas that served the row must be 1 or more, got 0") {
		t.Fatalf("replicas 0: %d", res.StatusCode)
	}
	if res, body := obs("2"); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("replicas 2: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	if res, body := post(t, app, lead, id, "/fleet", url.Values{"fleet.topology": {planner.TopologyBoxes}, "fleet.reserve": {"1"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("fleet: %d\n%.600s", res.StatusCode, body)
	}
	tok, err := app.store.CreateAPIToken(ctx, app.users["lead"].ID, "read")
	if err != nil {
		t.Fatal(err)
	}
	_, body := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id), nil, "Authorization", "Bearer "+tok)
	var a fleetAPI
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	f := a.Result.Fleet
	if f == nil || f.ScalingFrom != planner.ScalingMeasured || f.Scaling == nil || *f.Scaling < 1.8-1e-9 || *f.Scaling > 1.8+1e-9 {
		t.Fatalf("fleet %+v", f)
	}
}
