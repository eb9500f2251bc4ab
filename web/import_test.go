package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"capplan/planner"
	"capplan/web/demogen/guidellmgen"
	"capplan/web/reports"
	"capplan/web/store"
)

// Real result files from other people's runs, relative to web/.
const (
	benchGuideLLM = "../../shared/benchmarks/guidellm/vllm-project__guidellm__benchmarks_stripped.json"
	benchVLLM     = "../../shared/benchmarks/vllm/LambdaLabsML__vllm-benchmark__Meta-Llama-3.1-8B-FP8_tp1_len2048.json"
)

// upload is one file of a multipart upload.
type upload struct {
	name string
	data []byte
}

func readUpload(t testing.TB, path string) upload {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return upload{filepath.Base(path), b}
}

// withConfig restarts the test app's server with cfg (same database).
func withConfig(t testing.TB, app *testApp, cfg Config) {
	t.Helper()
	app.srv.Close()
	app.srv = httptest.NewServer(New(app.store, slog.New(slog.NewTextHandler(io.Discard, nil)), cfg))
	t.Cleanup(app.srv.Close)
}

// frozenReport creates a report owned by the lead with the demo contract
// frozen, ready for imports.
func frozenReport(t testing.TB, app *testApp) store.Report {
	t.Helper()
	ctx := context.Background()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx, lead, "Import test")
	if err != nil {
		t.Fatal(err)
	}
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited", Section: "contract"}, reports.DemoContract(), nil); err != nil {
		t.Fatal(err)
	}
	if err := app.store.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen", Section: "contract"}); err != nil {
		t.Fatal(err)
	}
	r, err := app.store.Report(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// postFiles sends files as the browser's upload form does (multipart,
// field "files", the version first), htmx-style when partial.
func postFiles(t testing.TB, c *http.Client, u string, version int, partial bool, files ...upload) (*http.Response, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if version > 0 {
		mw.WriteField("version", fmt.Sprint(version))
	}
	for _, f := range files {
		w, err := mw.CreateFormFile("files", f.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(f.data)
	}
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, u, &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if partial {
		req.Header.Set("HX-Request", "true")
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// counts is how many live imports and rows the report holds.
func counts(t testing.TB, st *store.Store, id int64) (imports, rows int) {
	t.Helper()
	ims, err := st.Imports(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := st.Rows(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(ims), len(rs)
}

func TestImportUploadAddsRows(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	res, body := postFiles(t, lead, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true,
		readUpload(t, benchGuideLLM), readUpload(t, benchVLLM))
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d\n%s", res.StatusCode, body)
	}
	for _, want := range []string{"Added 2 rows from 2 files.", "vllm-project__guidellm__benchmarks_stripped.json", "guidellm B (0.2)", "few-requests", `data-testid="download"`} {
		if !strings.Contains(body, want) {
			t.Errorf("response lacks %q", want)
		}
	}
	if strings.Contains(body, "<html") {
		t.Error("an htmx-style upload got the whole page, want the section's inside")
	}
	if n, rows := counts(t, app.store, r.ID); n != 2 || rows != 2 {
		t.Errorf("stored %d imports, %d rows; want 2, 2", n, rows)
	}
	hs, _ := app.store.History(context.Background(), r.ID)
	if len(hs) == 0 || !strings.Contains(hs[0].Action+hs[len(hs)-1].Action, "results imported") {
		t.Errorf("history does not record the import: %+v", hs)
	}

	// The report page shows the section, and the rows' contract checks.
	_, page := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, r.ID), nil)
	for _, want := range []string{`id="imports"`, "model-mismatch", "show sources"} {
		if !strings.Contains(page, want) {
			t.Errorf("report page lacks %q", want)
		}
	}
}

func TestImportPlainFormPostRedirects(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	res, body := postFiles(t, app.client("lead"), fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, false, readUpload(t, benchGuideLLM))
	var flash string
	for _, ck := range res.Cookies() {
		if ck.Name == flashCookie {
			flash = ck.Value
		}
	}
	if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(res.Header.Get("Location"), "#imports") || !strings.Contains(flash, "Added+1+row") {
		t.Fatalf("status %d, Location %q, flash %q\n%.400s", res.StatusCode, res.Header.Get("Location"), flash, body)
	}
}

func TestImportBatchAllOrNothing(t *testing.T) {
	app := newTestApp(t)
	dir := t.TempDir()
	withConfig(t, app, Config{DataDir: dir})
	r := frozenReport(t, app)
	good := readUpload(t, benchGuideLLM)
	bad := upload{"broken.json", good.data[:len(good.data)/2]}
	res, body := postFiles(t, app.client("lead"), fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true, good, bad)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422\n%s", res.StatusCode, body)
	}
	if !strings.Contains(body, "broken.json:") || !strings.Contains(body, "Nothing was imported.") {
		t.Errorf("the refusal does not name the bad file:\n%s", body)
	}
	if n, rows := counts(t, app.store, r.ID); n != 0 || rows != 0 {
		t.Errorf("stored %d imports, %d rows after a refused batch; want none", n, rows)
	}
	if after, _ := app.store.Report(context.Background(), r.ID); after.Version != r.Version {
		t.Errorf("version moved from %d to %d", r.Version, after.Version)
	}
	assertNoFiles(t, dir)
}

// assertNoFiles checks no raw or temporary file was left in the data folder.
func assertNoFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("file left in the data folder: %s", p)
		}
		return nil
	})
}

func TestImportDuplicateRefusedWithPointer(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	u := fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID)
	if res, body := postFiles(t, lead, u, r.Version, true, readUpload(t, benchGuideLLM)); res.StatusCode != http.StatusCreated {
		t.Fatalf("first import: %d\n%s", res.StatusCode, body)
	}
	ims, _ := app.store.Imports(context.Background(), r.ID)
	again := readUpload(t, benchGuideLLM)
	again.name = "renamed.json"
	res, body := postFiles(t, lead, u, r.Version+1, true, again)
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("status %d, want 409\n%s", res.StatusCode, body)
	}
	link := fmt.Sprintf(`href="/reports/%d/results#import-%d"`, r.ID, ims[0].ID)
	if !strings.Contains(body, "already imported") || !strings.Contains(body, link) {
		t.Errorf("no pointer to the first import (%s):\n%s", link, body)
	}
	if n, _ := counts(t, app.store, r.ID); n != 1 {
		t.Errorf("%d imports, want 1", n)
	}

	// The same file twice in one batch is refused too.
	res, body = postFiles(t, lead, u, r.Version+1, true, readUpload(t, benchVLLM), upload{"copy.json", readUpload(t, benchVLLM).data})
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, "are the same file") {
		t.Errorf("same file twice: status %d\n%s", res.StatusCode, body)
	}
}

func TestImportNeedsFrozenContract(t *testing.T) {
	app := newTestApp(t)
	id, err := app.store.CreateReport(context.Background(), app.users["lead"], "Draft")
	if err != nil {
		t.Fatal(err)
	}
	res, body := postFiles(t, app.client("lead"), fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, id), 1, true, readUpload(t, benchGuideLLM))
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "freeze the test contract before importing results") {
		t.Errorf("status %d, want 422 with the store's reason\n%s", res.StatusCode, body)
	}
	if n, _ := counts(t, app.store, id); n != 0 {
		t.Errorf("%d imports into a draft", n)
	}
}

func TestImportOverLimit(t *testing.T) {
	app := newTestApp(t)
	dir := t.TempDir()
	withConfig(t, app, Config{DataDir: dir, MaxUploadBytes: 4096})
	r := frozenReport(t, app)
	small := upload{"small.json", readUpload(t, benchVLLM).data} // about 4 KB
	big := readUpload(t, benchGuideLLM)                          // about 22 KB
	if len(small.data) > 4096 {
		small.data = readUpload(t, "../../shared/benchmarks/vllm/dstackai__benchmarks__1p3d_conc128_in128_out2048_20250914_020816.json").data
	}
	res, body := postFiles(t, app.client("lead"), fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true, small, big)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413\n%s", res.StatusCode, body)
	}
	if !strings.Contains(body, big.name+" is larger than the upload limit of 4.0 KiB (4096 bytes)") {
		t.Errorf("the refusal does not name the file and the limit:\n%s", body)
	}
	if n, rows := counts(t, app.store, r.ID); n != 0 || rows != 0 {
		t.Errorf("stored %d imports, %d rows; want none", n, rows)
	}
	assertNoFiles(t, dir)
}

func TestImportRemove(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	lead := app.client("lead")
	postFiles(t, lead, fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true, readUpload(t, benchGuideLLM))
	ims, _ := app.store.Imports(context.Background(), r.ID)
	if len(ims) != 1 {
		t.Fatalf("%d imports", len(ims))
	}
	u := fmt.Sprintf("%s/reports/%d/imports/%d/remove", app.srv.URL, r.ID, ims[0].ID)
	if res, _ := do(t, app.client("reviewer"), http.MethodPost, u, url.Values{"version": {fmt.Sprint(r.Version + 1)}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("reviewer removing: status %d, want 403", res.StatusCode)
	}
	res, body := do(t, lead, http.MethodPost, u, url.Values{"version": {fmt.Sprint(r.Version + 1)}}, "HX-Request", "true")
	if res.StatusCode != http.StatusOK || !strings.Contains(body, `hx-swap-oob="true"`) || !strings.Contains(body, "import removed") {
		t.Fatalf("status %d\n%s", res.StatusCode, body)
	}
	if n, rows := counts(t, app.store, r.ID); n != 0 || rows != 0 {
		t.Errorf("%d imports, %d rows left after removal", n, rows)
	}
	hs, _ := app.store.History(context.Background(), r.ID)
	found := false
	for _, h := range hs {
		if h.Action == "import removed" && strings.Contains(h.Before, ims[0].FileName) {
			found = true
		}
	}
	if !found {
		t.Errorf("history does not record the removal: %+v", hs)
	}
	// The evidence stays downloadable.
	if res, _ := do(t, lead, http.MethodGet, fmt.Sprintf("%s/reports/%d/imports/%d/file", app.srv.URL, r.ID, ims[0].ID), nil); res.StatusCode != http.StatusOK {
		t.Errorf("download after removal: status %d", res.StatusCode)
	}
}

func TestImportDownloadIdenticalBytes(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	f := readUpload(t, benchGuideLLM)
	postFiles(t, app.client("lead"), fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true, f)
	ims, _ := app.store.Imports(context.Background(), r.ID)
	res, body := do(t, app.client("finance"), http.MethodGet, fmt.Sprintf("%s/reports/%d/imports/%d/file", app.srv.URL, r.ID, ims[0].ID), nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	sum := sha256.Sum256([]byte(body))
	if got := hex.EncodeToString(sum[:]); got != ims[0].SHA256 || body != string(f.data) {
		t.Errorf("downloaded sha256 %s, stored %s", got, ims[0].SHA256)
	}
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename=`+f.name {
		t.Errorf("Content-Disposition %q", cd)
	}
	if res, _ := do(t, app.client(""), http.MethodGet, fmt.Sprintf("%s/reports/%d/imports/%d/file", app.srv.URL, r.ID, ims[0].ID), nil); res.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous download: status %d, want the login redirect", res.StatusCode)
	}
}

func TestImportProvenance(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	postFiles(t, app.client("lead"), fmt.Sprintf("%s/reports/%d/imports", app.srv.URL, r.ID), r.Version, true, readUpload(t, benchGuideLLM))
	rows, _ := app.store.Rows(context.Background(), r.ID)
	u := fmt.Sprintf("%s/reports/%d/rows/%d/provenance", app.srv.URL, r.ID, rows[0].ID)
	res, part := do(t, app.client("reviewer"), http.MethodGet, u, nil, "HX-Request", "true")
	if res.StatusCode != http.StatusOK || strings.Contains(part, "<html") {
		t.Fatalf("status %d, want the partial\n%.300s", res.StatusCode, part)
	}
	p95 := rows[0].Row.TTFT.P95
	for _, want := range []string{"ttft_s.p95", rows[0].Row.Paths["ttft_s.p95"], fmt.Sprint(*p95), rows[0].Row.Source.SHA256, "vllm-project__guidellm__benchmarks_stripped.json"} {
		if !strings.Contains(part, want) {
			t.Errorf("provenance lacks %q", want)
		}
	}
	if _, page := do(t, app.client("reviewer"), http.MethodGet, u, nil); !strings.Contains(page, "<html") || !strings.Contains(page, "Back to the report") {
		t.Error("without htmx the provenance is not a full page")
	}
}

// apiPost sends a raw file to the results API with a bearer token.
func apiPost(t testing.TB, app *testApp, token, path, contentType string, body []byte) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, app.srv.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestImportAPI(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	r := frozenReport(t, app)
	tok, err := app.store.CreateAPIToken(ctx, app.users["lead"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	f := readUpload(t, benchGuideLLM)
	path := fmt.Sprintf("/api/v1/reports/%d/results?name=%s", r.ID, f.name)

	res, body := apiPost(t, app, tok, path, "application/json", f.data)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d\n%s", res.StatusCode, body)
	}
	var got struct {
		Imports []struct {
			ID            int64  `json:"id"`
			File          string `json:"file"`
			SHA256        string `json:"sha256"`
			Format        string `json:"format"`
			FormatVersion string `json:"format_version"`
			Rows          int    `json:"rows"`
			Warnings      []struct {
				Code, Message string
				Row           *int
			} `json:"warnings"`
		} `json:"imports"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatalf("%v\n%s", err, body)
	}
	sum := sha256.Sum256(f.data)
	if len(got.Imports) != 1 || got.Imports[0].File != f.name || got.Imports[0].SHA256 != hex.EncodeToString(sum[:]) ||
		got.Imports[0].Format != "guidellm" || got.Imports[0].FormatVersion == "" || got.Imports[0].Rows != 1 || len(got.Imports[0].Warnings) == 0 || got.Imports[0].ID == 0 {
		t.Errorf("answer %s", body)
	}

	// The same file again: 409 with a pointer, in JSON.
	res, body = apiPost(t, app, tok, path, "application/octet-stream", f.data)
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, `"error"`) || !strings.Contains(body, fmt.Sprintf("#import-%d", got.Imports[0].ID)) {
		t.Errorf("duplicate: status %d %s", res.StatusCode, body)
	}

	// Multipart with two files, one broken: 422, nothing stored.
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	w, _ := mw.CreateFormFile("files", "vllm.json")
	w.Write(readUpload(t, benchVLLM).data)
	w, _ = mw.CreateFormFile("files", "broken.json")
	w.Write([]byte(`{"benchmarks": [`))
	mw.Close()
	res, body = apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results", r.ID), mw.FormDataContentType(), mp.Bytes())
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "broken.json") {
		t.Errorf("broken batch: status %d %s", res.StatusCode, body)
	}
	if n, _ := counts(t, app.store, r.ID); n != 1 {
		t.Errorf("%d imports, want 1", n)
	}

	// No name for a raw body: 400.
	if res, body := apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results", r.ID), "application/json", f.data); res.StatusCode != http.StatusBadRequest {
		t.Errorf("no name: status %d %s", res.StatusCode, body)
	}

	// No token, an unknown token, a revoked one: 401. A reviewer's: 403.
	if res, _ := apiPost(t, app, "", path, "application/json", f.data); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: %d", res.StatusCode)
	}
	toks, _ := app.store.APITokens(ctx, app.users["lead"].ID)
	if err := app.store.RevokeAPIToken(ctx, app.users["lead"].ID, toks[0].ID); err != nil {
		t.Fatal(err)
	}
	if res, _ := apiPost(t, app, tok, path, "application/json", f.data); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("revoked token: %d", res.StatusCode)
	}
	rtok, _ := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "ci")
	if res, body := apiPost(t, app, rtok, path, "application/json", f.data); res.StatusCode != http.StatusForbidden || !strings.Contains(body, `"error"`) {
		t.Errorf("reviewer's token: %d %s", res.StatusCode, body)
	}
}

func TestImportBatchGenerated(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := guidellmgen.Write(&buf, guidellmgen.Config{}); err != nil {
		t.Fatal(err)
	}
	b := reports.NewImportBatch(dir, 0)
	defer b.Close()
	if err := b.Add(`C:\runs\demo.json`, &buf); err != nil {
		t.Fatal(err)
	}
	ims, err := reports.CommitLatest(context.Background(), app.store, b, r.ID, app.users["lead"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if ims[0].FileName != "demo.json" || ims[0].Rows != 5 {
		t.Errorf("import %+v", ims[0])
	}
	if _, err := os.Stat(filepath.Join(dir, ims[0].SHA256[:2], ims[0].SHA256)); err != nil {
		t.Errorf("raw file not at its content address: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".upload-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// walkFixtures are the imports made for the route walk, by report.
var (
	walkMu       sync.Mutex
	walkFixtures = map[int64]walkFixture{}
)

type walkFixture struct{ importID, rowID int64 }

// walkImport freezes the walk's report and imports one row into it, once
// per report, for the routes with :iid and :rid.
func walkImport(t testing.TB, app *testApp, reportID int64) walkFixture {
	t.Helper()
	walkMu.Lock()
	defer walkMu.Unlock()
	if f, ok := walkFixtures[reportID]; ok {
		return f
	}
	ctx := context.Background()
	lead := app.users["lead"]
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: reportID, BaseVersion: 1, UserID: lead.ID, Action: "contract edited"}, reports.DemoContract(), nil); err != nil {
		t.Fatal(err)
	}
	if err := app.store.Freeze(ctx, store.Edit{ReportID: reportID, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen"}); err != nil {
		t.Fatal(err)
	}
	src := planner.Source{File: "walk.json", SHA256: strings.Repeat("ab", 32), Format: "guidellm"}
	row := planner.Row{Source: src, LoadKind: planner.LoadConcurrency, Load: planner.F(1), Paths: map[string]string{"load": "benchmarks[0].load"}}
	ids, err := app.store.AddImports(ctx, store.Edit{ReportID: reportID, BaseVersion: 3, UserID: lead.ID, Action: "results imported"},
		[]store.ImportWithRows{{Import: store.Import{FileName: src.File, SHA256: src.SHA256, Format: src.Format}, Rows: []planner.Row{row}}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := app.store.Rows(ctx, reportID)
	if err != nil || len(rows) != 1 {
		t.Fatalf("walk rows: %v %d", err, len(rows))
	}
	f := walkFixture{importID: ids[0], rowID: rows[0].ID}
	walkFixtures[reportID] = f
	return f
}
