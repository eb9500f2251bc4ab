package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// postCandidateFile sends one file the way a candidate's upload form does.
func postCandidateFile(t *testing.T, c *http.Client, u string, version int, candidate string, f upload) (*http.Response, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("version", fmt.Sprint(version))
	mw.WriteField("candidate", candidate)
	w, _ := mw.CreateFormFile("files", f.name)
	w.Write(f.data)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, u, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("HX-Request", "true")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestImportIntoCandidateMatrix(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	r := frozenReport(t, app)
	cid, err := app.store.SaveCandidate(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "candidate added"}, 0,
		planner.Candidate{Name: "fp8", Model: "llama-fp8"})
	if err != nil {
		t.Fatal(err)
	}
	u := fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID)
	lead := app.client("lead")

	// A candidate of another report is refused, and nothing is stored.
	other := frozenReport(t, app)
	otherCid, _ := app.store.SaveCandidate(ctx, store.Edit{ReportID: other.ID, BaseVersion: other.Version, UserID: app.users["lead"].ID, Action: "candidate added"}, 0,
		planner.Candidate{Name: "int4"})
	res, body := postCandidateFile(t, lead, u, r.Version+1, fmt.Sprint(otherCid), readUpload(t, benchVLLM))
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "no candidate") {
		t.Fatalf("foreign candidate: %d\n%.300s", res.StatusCode, body)
	}

	res, body = postCandidateFile(t, lead, u, r.Version+1, fmt.Sprint(cid), readUpload(t, benchVLLM))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d\n%.400s", res.StatusCode, body)
	}
	rows, _ := app.store.Rows(ctx, r.ID)
	if len(rows) != 1 || rows[0].CandidateID != cid {
		t.Fatalf("rows = %+v, want one row of candidate %d", rows, cid)
	}
	// The candidate's rows feed the candidate, not the report's matrix.
	rep, err := reports.New(app.store, "", time.Now).Load(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	in := rep.In
	if len(in.Rows) != 0 {
		t.Errorf("main matrix has %d rows, want 0", len(in.Rows))
	}
	for _, c := range in.Candidates {
		if c.Name == "fp8" && len(c.Rows) != 1 {
			t.Errorf("candidate fp8 has %d rows, want 1", len(c.Rows))
		}
	}
}
