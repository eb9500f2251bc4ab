package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// A row whose file did not name the model offers a field for it in the
// row's form (the row-figures save pipeline); the model typed is kept
// with the row, judged against the contract's, and recorded in the
// history. A row whose file names its model offers no such field.
func TestRowModelTypedByHand(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := seedMatrix(t, app) // rows naming the model
	lead := app.client("lead")
	sha := fmt.Sprintf("%064x", id+100)
	rows := matrixRows(sha)
	for i := range rows {
		rows[i].Model = ""
	}
	addRows(t, app.store, id, app.users["lead"].ID, 0, "nomodel.json", sha, rows[:1])
	stored, err := app.store.Rows(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var rid int64
	named := 0
	for _, sr := range stored {
		if sr.Row.Model == "" {
			rid = sr.ID
		} else {
			named++
		}
	}
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	_, page := do(t, lead, "GET", base+"/results?rows=all", nil)
	page = withParts(t, lead, app.srv.URL, page)
	if n := strings.Count(page, `data-testid="row-model"`); n != 1 {
		t.Fatalf("%d model fields on the page, want 1 (the row whose file named none; %d rows name theirs)", n, named)
	}
	res, body := do(t, lead, "POST", fmt.Sprintf("%s/rows/%d/observed", base, rid), url.Values{"version": {reportVersion(t, app, id)}, "model": {"mistralai/Mistral-7B"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("typing the model: %d %s", res.StatusCode, between(body, "<main", "</main>"))
	}
	stored, _ = app.store.Rows(ctx, id)
	for _, sr := range stored {
		if sr.ID == rid && sr.Row.ModelName() != "mistralai/Mistral-7B" {
			t.Errorf("the typed model was not kept: %q", sr.Row.ModelName())
		}
	}
	_, page = do(t, lead, "GET", base+"/results?rows=all", nil)
	if !strings.Contains(page, "model mistralai/Mistral-7B, not the contract&#39;s") {
		t.Error("the typed model is not judged against the contract's")
	}
	// The workbook's matrix names the typed model as typed.
	_, xb := do(t, lead, http.MethodGet, base+"/export.xlsx", nil)
	f, err := excelize.OpenReader(strings.NewReader(xb))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cells, _ := f.GetRows("Matrix")
	typed := 0
	for _, r := range cells {
		for _, c := range r {
			if c == "mistralai/Mistral-7B (typed)" {
				typed++
			}
		}
	}
	if typed != 1 {
		t.Errorf("the Matrix sheet names the typed model as typed %d times, want 1", typed)
	}
	h, _ := app.store.History(ctx, id)
	if !strings.Contains(h[0].After, "Model (typed: the file named none): mistralai/Mistral-7B") {
		t.Errorf("history: %q", h[0].After)
	}
}
