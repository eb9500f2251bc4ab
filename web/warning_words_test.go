package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"capplan/web/demogen/guidellmgen"
)

// TestImportWarningsInSentences: a file of another model than the
// contract's, posted through the API, is answered with each warning in a
// sentence naming the file's model and the contract's; the imports list
// on the results step says the same sentence, with the rows it concerns,
// without the rows unfolded and without the warning's code.
func TestImportWarningsInSentences(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["lead"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := guidellmgen.Write(&b, guidellmgen.Config{Model: "mistralai/Mistral-7B-Instruct-v0.3"}); err != nil {
		t.Fatal(err)
	}
	res, body := apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=run.json", r.ID), "application/json", b.Bytes())
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("API: %d %s", res.StatusCode, body)
	}
	want := fmt.Sprintf("The file's model is mistralai/Mistral-7B-Instruct-v0.3; the contract names %s.", r.Contract.BaselineModel)
	var out struct {
		Imports []struct {
			Warnings []apiWarning `json:"warnings"`
		} `json:"imports"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil || len(out.Imports) != 1 {
		t.Fatalf("API answer %s (%v)", body, err)
	}
	n := 0
	for _, w := range out.Imports[0].Warnings {
		if w.Code == "model-mismatch" {
			n++
			if w.Text != want {
				t.Errorf("API warning text = %q, want %q", w.Text, want)
			}
		}
	}
	if n != 5 {
		t.Errorf("API: %d model-mismatch warnings, want one per row (5): %s", n, body)
	}

	_, page := do(t, app.client("lead"), http.MethodGet, fmt.Sprintf("%s/reports/%d/results", app.srv.URL, r.ID), nil)
	page = html.UnescapeString(page)
	i := strings.Index(page, `data-testid="row-warning-lines"`)
	if i < 0 {
		t.Fatal("the imports list has no warning sentences")
	}
	lines := page[i : strings.Index(page[i:], "</ul>")+i]
	if !strings.Contains(lines, want+" (5 rows)") {
		t.Errorf("imports list lines = %q, want %q", lines, want+" (5 rows)")
	}
	if strings.Contains(page, "model-mismatch ×") || strings.Contains(page, "<code>model-mismatch</code>") {
		t.Error("the imports list still shows the warning's code")
	}
}
