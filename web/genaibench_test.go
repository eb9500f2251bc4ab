package web

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"capplan/web/demogen/genaibenchgen"
	"capplan/web/store"
)

// A genai-bench experiment folder imported over the browser (several files
// in one upload) and over the token API (the folder as a zip): one row per
// concurrency, completed by the metadata file, and the API key of its
// recorded command line nowhere: not in the database file, the raw files,
// the page, the API or the workbook.
func TestGenAIBenchFolderKeepsNoSecret(t *testing.T) {
	const key = "sk-proj-SECRETabcdefghijklmnop0123"
	dir := t.TempDir()
	dataDir := filepath.Join(dir, "data")
	st, err := store.Open(context.Background(), filepath.Join(dir, "capplan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	app := &testApp{t: t, store: st, users: map[string]store.User{}}
	lead, err := st.CreateUser(context.Background(), "lead@example.com", "lead", store.RoleLead, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	app.users["lead"] = lead
	app.srv = httptest.NewServer(New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: dataDir}))
	defer app.srv.Close()
	c := app.client("lead")

	folder := genaibenchgen.Folder("ms", key, 120, 2, 1, 4)
	// the browser: the folder's files in one upload
	r1 := frozenReport(t, app)
	var ups []upload
	for _, n := range genaibenchgen.Names(folder) {
		ups = append(ups, upload{n, folder[n]})
	}
	res, body := postFiles(t, c, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r1.ID), r1.Version, true, ups...)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("browser upload: %d\n%s", res.StatusCode, body)
	}
	if !strings.Contains(body, "Added 2 rows from 2 files.") {
		t.Errorf("the upload did not add one row per concurrency:\n%.600s", body)
	}
	// each row's goodput from its per-request records: 120 of 120
	// successes within every bound, 2.00 of 2.00 successful req/s
	_, page := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r1.ID), nil)
	if n := strings.Count(page, `data-testid="goodput"`); n != 2 || !strings.Contains(page, "2.00 in objective") || !strings.Contains(page, "120 of 120 on record") {
		t.Errorf("%d goodput lines on the page; matrix: %.1500s", n, testid(page, "matrix"))
	}
	rows, err := st.Rows(context.Background(), r1.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, sr := range rows {
		r := sr.Row
		if r.Model != "Qwen/Qwen3-8B" || r.Source.Format != "genai-bench" || r.TTFT.P95 == nil || *r.TTFT.P95 > 1 {
			t.Errorf("row %+v: model %q, ttft p95 %v (want seconds)", r.Load, r.Model, r.TTFT.P95)
		}
	}

	// the token API: the folder as one zip
	r2 := frozenReport(t, app)
	tok, err := st.CreateAPIToken(context.Background(), lead.ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	var mb bytes.Buffer
	mw := multipart.NewWriter(&mb)
	w, _ := mw.CreateFormFile("files", "experiment.zip")
	w.Write(genaibenchgen.Zip("openai_SGLang_text-to-text", folder))
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/v1/reports/%d/results", app.srv.URL, r2.ID), &mb)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated || !strings.Contains(string(b), "experiment.zip: openai_SGLang_text-to-text/"+genaibenchgen.RunName(4)) {
		t.Fatalf("API zip upload: %d\n%s", res.StatusCode, b)
	}

	// nowhere: the pages, the API, the workbooks
	var seen []string
	for _, id := range []int64{r1.ID, r2.ID} {
		_, page := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/print?rows=all", app.srv.URL, id), nil)
		seen = append(seen, page)
		if !strings.Contains(page, "genai-bench") {
			t.Errorf("report %d page does not show the genai-bench rows", id)
		}
		_, api := do(t, http.DefaultClient, http.MethodGet, fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id), nil, "Authorization", "Bearer "+tok)
		seen = append(seen, api)
		_, csv := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/matrix.csv", app.srv.URL, id), nil)
		seen = append(seen, csv)
		_, xl := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, id), nil)
		zr, err := zip.NewReader(strings.NewReader(xl), int64(len(xl)))
		if err != nil {
			t.Fatalf("workbook: %v", err)
		}
		for _, f := range zr.File {
			rc, _ := f.Open()
			x, _ := io.ReadAll(rc)
			rc.Close()
			seen = append(seen, string(x))
		}
	}
	for i, s := range seen {
		if strings.Contains(s, key) || strings.Contains(s, "SECRETabc") {
			t.Errorf("answer %d shows the key", i)
		}
	}
	// nowhere on disk: the database, its journal, the raw files
	st.Close()
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		x, _ := os.ReadFile(p)
		n++
		if bytes.Contains(x, []byte(key)) || bytes.Contains(x, []byte("SECRETabc")) {
			t.Errorf("%s holds the key", p)
		}
		return nil
	})
	if n < 3 {
		t.Errorf("only %d files on disk: the database and the raw run files were expected", n)
	}
}
