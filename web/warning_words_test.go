package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"capplan/web/demogen/guidellmgen"
)

// TestImportWarningsInSentences: a file of another model than the
// contract's, posted through the API, is answered with each warning in a
// sentence naming the file's model and the contract's. (The imports list
// on the results step, which says the same sentence with the rows it
// concerns, is tested in web/view.)
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
}
