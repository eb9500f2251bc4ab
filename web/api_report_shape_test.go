package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// The report's JSON, written by hand around the shared encoded parts, is
// what encoding/json writes for apiReport: it decodes into apiReport with
// no field unknown and encodes back to the same document.
func TestAPIReportHasApiReportsShape(t *testing.T) {
	app := newTestApp(t)
	id, _ := seedMatrix(t, app)
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["finance"].ID, "shape")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"", "?include=rows"} {
		res, body := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d%s", app.srv.URL, id, q), nil, "Authorization", "Bearer "+tok)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("API%s: %d %s", q, res.StatusCode, body)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(body)))
		dec.DisallowUnknownFields()
		var r apiReport
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("API%s does not decode as apiReport: %v", q, err)
		}
		if r.Report.ID != id || r.RowsIncluded != (q != "") {
			t.Errorf("API%s: report %d, rows included %v", q, r.Report.ID, r.RowsIncluded)
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var want, got bytes.Buffer
		if err := json.Compact(&want, []byte(body)); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&got, again); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.Bytes(), got.Bytes()) {
			t.Errorf("API%s: apiReport encodes otherwise than the answer:\n got %.400s\nwant %.400s", q, got.String(), want.String())
		}
	}
}
