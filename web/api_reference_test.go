package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"capplan/web/demogen/guidellmgen"
	"capplan/web/store"
)

// postReferenceAPI sends reference rows to the token API: the fields in
// order, then the files.
func postReferenceAPI(t *testing.T, app *testApp, token string, id int64, fields [][2]string, files ...upload) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	for _, f := range files {
		w, _ := mw.CreateFormFile("files", f.name)
		w.Write(f.data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/v1/reports/%d/reference", app.srv.URL, id), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestAPIReferenceImport: reference rows sent with a token land whole, and
// the answer says what was added and where the ceiling stands against the
// frontier; a lead who is not an editor, a result file among the files, a
// file without a date and a report in review are each refused in JSON,
// naming what was wrong, with nothing stored.
func TestAPIReferenceImport(t *testing.T) {
	ctx := context.Background()
	app := newTestApp(t)
	r := demoReport(t, app)
	admin, err := app.store.UserByEmail(ctx, "admin")
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := app.store.CreateAPIToken(ctx, admin.ID, "ci")
	lead2Tok, _ := app.store.CreateAPIToken(ctx, app.users["lead2"].ID, "ci")
	dated := [][2]string{{"source", "InferenceX"}, {"date", "2026-11-20"}}
	jsonRows, csvRows := upload{name: "agg_bmk.json", data: inferenceXRows(false)}, upload{name: "inferencex.csv", data: inferenceXRows(true)}
	var guide bytes.Buffer
	if err := guidellmgen.Write(&guide, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	unchanged := func(what string) {
		t.Helper()
		if v := reportVersion(t, app, r.ID); v != fmt.Sprint(r.Version) {
			t.Errorf("%s: the report moved to version %s", what, v)
		}
		if rf := apiResult(t, app, r.ID).Reference; rf != nil {
			t.Errorf("%s: reference rows stored: %d", what, len(rf.Rows))
		}
	}

	if code, body := postReferenceAPI(t, app, lead2Tok, r.ID, dated, jsonRows); code != http.StatusForbidden || !strings.Contains(body, "may not edit this report") {
		t.Errorf("a lead who is not an editor: %d %s", code, body)
	}
	unchanged("not an editor")
	code, body := postReferenceAPI(t, app, tok, r.ID, dated, jsonRows, upload{name: "benchmarks.json", data: guide.Bytes()})
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, fmt.Sprintf("POST /api/v1/reports/%d/results", r.ID)) ||
		!strings.Contains(body, "benchmarks.json") || !strings.Contains(body, "Nothing was imported") || !strings.HasPrefix(body, `{"error":`) {
		t.Errorf("a result file among the reference rows: %d %s", code, body)
	}
	unchanged("a result file")
	if code, body := postReferenceAPI(t, app, tok, r.ID, [][2]string{{"source", "InferenceX"}}, jsonRows); code != http.StatusUnprocessableEntity || !strings.Contains(body, "no date") {
		t.Errorf("no date: %d %s", code, body)
	}
	unchanged("no date")

	code, body = postReferenceAPI(t, app, tok, r.ID, dated, jsonRows, csvRows)
	if code != http.StatusCreated {
		t.Fatalf("import: %d %s", code, body)
	}
	var got struct {
		Files []struct {
			File string `json:"file"`
			Rows int    `json:"rows"`
		} `json:"files"`
		Rows    int `json:"rows"`
		Matched int `json:"matched"`
		Ratio   *struct {
			Ratio *float64 `json:"ratio"`
		} `json:"ratio"`
		Version int `json:"version"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	rf := apiResult(t, app, r.ID).Reference
	if rf == nil || len(rf.Rows) != 10 || rf.Ratio == nil || rf.Ratio.Ratio == nil {
		t.Fatalf("stored reference: %+v", rf)
	}
	if len(got.Files) != 2 || got.Files[0] != (struct {
		File string `json:"file"`
		Rows int    `json:"rows"`
	}{"agg_bmk.json", 5}) || got.Files[1].File != "inferencex.csv" || got.Rows != 10 || got.Matched != rf.Matched || got.Matched == 0 ||
		got.Ratio == nil || got.Ratio.Ratio == nil || *got.Ratio.Ratio != *rf.Ratio.Ratio || got.Version != r.Version+1 {
		t.Errorf("answer %s", body)
	}
	hist, _ := app.store.History(ctx, r.ID)
	if h := hist[0]; h.Action != "reference rows imported" || !strings.Contains(h.After, "reference rows, agg_bmk.json: 5 rows") || !strings.Contains(h.Before, "(none)") {
		t.Errorf("history %+v", h)
	}

	// In review: refused as the browser's form is.
	cur, _ := app.store.Report(ctx, r.ID)
	if err := app.store.Transition(ctx, store.Edit{ReportID: r.ID, BaseVersion: cur.Version, UserID: admin.ID, Action: "submitted for review", Section: "review"}, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	if code, body := postReferenceAPI(t, app, tok, r.ID, dated, upload{name: "more.json", data: inferenceXRows(false)}); code != http.StatusConflict || !strings.Contains(body, "in review") {
		t.Errorf("in review: %d %s", code, body)
	}
	if rf := apiResult(t, app, r.ID).Reference; rf == nil || len(rf.Rows) != 10 {
		t.Errorf("in review: the rows changed")
	}
}
