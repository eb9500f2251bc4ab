package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
	"capplan/web/reports"
	"capplan/web/store"
)

// perfApp is a server over a database holding the demo report and, when
// asked, a report of many rows; lead is logged in.
type perfApp struct {
	*testApp
	demo, big int64
	lead      *http.Client
}

func newPerfApp(tb testing.TB, bigRows int) *perfApp {
	tb.Helper()
	app := newTestApp(tb)
	ctx := context.Background()
	if _, err := app.store.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword); err != nil {
		tb.Fatal(err)
	}
	if err := reports.SeedDemo(ctx, app.store, tb.TempDir()); err != nil {
		tb.Fatal(err)
	}
	p := &perfApp{testApp: app, demo: 1}
	if bigRows > 0 {
		p.big = seedBigReport(tb, app, bigRows)
	}
	p.lead = app.client("admin")
	// No compression unless a benchmark asks for it (see BenchmarkUnderLoad).
	p.lead.Transport = &http.Transport{MaxIdleConnsPerHost: 128, DisableCompression: true}
	return p
}

// seedBigReport makes a frozen report with n rows, imported from one
// generated GuideLLM file (loads 1 to n).
func seedBigReport(tb testing.TB, app *testApp, n int) int64 {
	tb.Helper()
	ctx := context.Background()
	lead := app.users["lead"]
	id, err := app.store.CreateReport(ctx, lead, fmt.Sprintf("%d rows", n))
	if err != nil {
		tb.Fatal(err)
	}
	if err := app.store.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: lead.ID, Action: "contract edited"}, reports.DemoContract(), nil); err != nil {
		tb.Fatal(err)
	}
	if err := app.store.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: lead.ID, Action: "contract frozen"}); err != nil {
		tb.Fatal(err)
	}
	loads := make([]float64, n)
	for i := range loads {
		loads[i] = float64(i + 1)
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(guidellmgen.Write(pw, guidellmgen.Config{Loads: loads, RequestsPerRow: 8})) }()
	batch := reports.NewImportBatch(tb.TempDir(), 0)
	defer batch.Close()
	if err := batch.Add("many-rows.json", pr); err != nil {
		tb.Fatal(err)
	}
	if _, err := reports.CommitLatest(ctx, app.store, batch, id, lead.ID); err != nil {
		tb.Fatal(err)
	}
	return id
}

// get fetches u as the logged-in admin and fails on anything but 200.
func (p *perfApp) get(tb testing.TB, c *http.Client, u string, hdr ...string) int64 {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %d", u, res.StatusCode)
	}
	return n
}

// BenchmarkFreshReportPage is one client viewing a report page that is
// rendered afresh every time: a comment before each view makes it new (the
// report's computation, unchanged, comes from the memo). In the
// "-new-version" runs a rename before each view makes a new version, which
// is read and computed again. p50-ms is the median view.
//
//	go test -run '^$' -bench FreshReportPage ./web
func BenchmarkFreshReportPage(b *testing.B) {
	p := newPerfApp(b, 500)
	for _, tc := range []struct {
		name    string
		id      int64
		version bool
	}{{"demo", p.demo, false}, {"rows500", p.big, false}, {"demo-new-version", p.demo, true}, {"rows500-new-version", p.big, true}} {
		b.Run(tc.name, func(b *testing.B) {
			u := fmt.Sprintf("%s/reports/%d", p.srv.URL, tc.id)
			var bytes int64
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				if tc.version {
					p.rename(b, tc.id, i)
				} else {
					p.comment(b, tc.id, i)
				}
				b.StartTimer()
				start := time.Now()
				bytes = p.get(b, p.lead, u)
				lat = append(lat, time.Since(start))
			}
			b.ReportMetric(float64(bytes), "page-bytes")
			b.ReportMetric(ms(median(lat)), "p50-ms")
		})
	}
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	d = slices.Clone(d)
	slices.Sort(d)
	return d[len(d)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// rename gives report id a new title through the store: a new version.
func (p *perfApp) rename(tb testing.TB, id int64, i int) {
	r, err := p.store.Report(context.Background(), id)
	if err != nil {
		tb.Fatal(err)
	}
	e := store.Edit{ReportID: id, BaseVersion: r.Version, UserID: p.users["admin"].ID, Action: "renamed"}
	if err := p.store.RenameReport(context.Background(), e, fmt.Sprintf("Report %d", i)); err != nil {
		tb.Fatal(err)
	}
}

// comment adds a comment through the store (a change the page shows).
func (p *perfApp) comment(tb testing.TB, id int64, i int) {
	if err := p.store.AddComment(context.Background(), id, p.users["reviewer"].ID, "matrix", fmt.Sprintf("comment %d", i)); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkAPIReport is one client reading the report as JSON with a token.
//
//	go test -run '^$' -bench APIReport ./web
func BenchmarkAPIReport(b *testing.B) {
	p := newPerfApp(b, 500)
	tok, err := p.store.CreateAPIToken(context.Background(), p.users["reviewer"].ID, "bench")
	if err != nil {
		b.Fatal(err)
	}
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	for _, tc := range []struct {
		name  string
		id    int64
		query string
	}{{"demo", p.demo, ""}, {"rows500", p.big, ""}, {"rows500-include-rows", p.big, "?include=rows"}} {
		b.Run(tc.name, func(b *testing.B) {
			u := fmt.Sprintf("%s/api/v1/reports/%d%s", p.srv.URL, tc.id, tc.query)
			var bytes int64
			for b.Loop() {
				bytes = p.get(b, c, u, "Authorization", "Bearer "+tok)
			}
			b.ReportMetric(float64(bytes), "response-bytes")
		})
	}
}

// BenchmarkUnderLoad is 50 clients on loopback for a fixed time, first on
// a static asset, then on the demo report page, then on the report as JSON
// (API token), the last two while a lead saves a change every 100 ms (each
// a new version), all from the same server in the same run. It reports each
// one's throughput and p99, the page's ratios to the asset's and the API's
// throughput to the page's. It runs twice: "identity", the clients asking
// for no compression, and "gzip", the clients accepting gzip as browsers
// do and reading the compressed bytes, as load generators do.
//
//	go test -run '^$' -bench UnderLoad -benchtime 1x ./web
func BenchmarkUnderLoad(b *testing.B) {
	p := newPerfApp(b, 0)
	tok, err := p.store.CreateAPIToken(context.Background(), p.users["reviewer"].ID, "bench")
	if err != nil {
		b.Fatal(err)
	}
	const clients = 50
	var window time.Duration
	run := func(c *http.Client, u string, edits bool, hdr ...string) (rps float64, p50, p99 time.Duration) {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		if edits {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t := time.NewTicker(100 * time.Millisecond)
				defer t.Stop()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					case <-t.C:
						p.rename(b, p.demo, i)
					}
				}
			}()
		}
		var mu sync.Mutex
		var lat []time.Duration
		var n atomic.Int64
		start := time.Now()
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var mine []time.Duration
				for time.Since(start) < window {
					t0 := time.Now()
					p.get(b, c, u, hdr...)
					mine = append(mine, time.Since(t0))
					n.Add(1)
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
		}
		time.Sleep(window)
		close(stop)
		wg.Wait()
		elapsed := time.Since(start)
		slices.Sort(lat)
		return float64(n.Load()) / elapsed.Seconds(), lat[len(lat)/2], lat[(len(lat)*99+99)/100-1]
	}
	for _, enc := range []string{"identity", "gzip"} {
		b.Run(enc, func(b *testing.B) {
			// The transports never decompress: with "gzip" the clients ask
			// for it themselves and count the bytes as sent. They read
			// through 64 KB buffers (the default is 4 KB) as load generators
			// do, so that a larger body costs the client few more reads.
			tr := func() *http.Transport {
				return &http.Transport{MaxIdleConnsPerHost: 128, DisableCompression: true, ReadBufferSize: 64 << 10}
			}
			page := &http.Client{Jar: p.lead.Jar, Transport: tr()}
			api := &http.Client{Transport: tr()}
			var hdr []string
			if enc == "gzip" {
				hdr = []string{"Accept-Encoding", "gzip"}
			}
			static, report, json := p.srv.URL+"/static/app.css", fmt.Sprintf("%s/reports/%d", p.srv.URL, p.demo), fmt.Sprintf("%s/api/v1/reports/%d", p.srv.URL, p.demo)
			// A second of each first, unmeasured: connections opened, the
			// heap grown to its working size.
			window = time.Second
			run(page, static, false, hdr...)
			run(page, report, true, hdr...)
			run(api, json, true, append(hdr, "Authorization", "Bearer "+tok)...)
			window = 3 * time.Second
			for b.Loop() {
				sRPS, _, sP99 := run(page, static, false, hdr...)
				pRPS, pP50, pP99 := run(page, report, true, hdr...)
				aRPS, _, aP99 := run(api, json, true, append(hdr, "Authorization", "Bearer "+tok)...)
				b.ReportMetric(sRPS, "static-req/s")
				b.ReportMetric(ms(sP99), "static-p99-ms")
				b.ReportMetric(pRPS, "page-req/s")
				b.ReportMetric(ms(pP50), "page-p50-ms")
				b.ReportMetric(ms(pP99), "page-p99-ms")
				b.ReportMetric(aRPS, "api-req/s")
				b.ReportMetric(ms(aP99), "api-p99-ms")
				b.ReportMetric(pRPS/sRPS, "throughput-ratio")
				b.ReportMetric(float64(pP99)/float64(sP99), "p99-ratio")
				b.ReportMetric(aRPS/pRPS, "api/page-throughput")
			}
		})
	}
}

// inOwnProcess runs test t again in a process of its own and reports
// whether it did so (the caller then returns); in that process it reports
// false and the test runs. A heap measured in the process that ran the
// other tests would count whatever they left still running (an upload's
// parse finishing after its test, a closed server's last requests).
func inOwnProcess(t *testing.T) bool {
	t.Helper()
	const env = "CAPPLAN_OWN_PROCESS"
	if os.Getenv(env) == t.Name() {
		return false
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), env+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("in a process of its own:\n%s", out)
	if err != nil {
		t.Errorf("%s: %v", t.Name(), err)
	}
	return true
}

// TestReportViewsKeepHeapBounded drives 300 cycles of (comment, view) on
// the demo report in-process and holds the live heap's growth under a
// bound: nothing may keep a page, a result or a report per version.
func TestReportViewsKeepHeapBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("300 views")
	}
	if inOwnProcess(t) {
		return
	}
	st := mustOpenDB(t)
	ctx := context.Background()
	if _, err := st.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword); err != nil {
		t.Fatal(err)
	}
	reviewer, err := st.CreateUser(ctx, "r@example.com", "R", store.RoleReviewer, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	if err := reports.SeedDemo(ctx, st, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	h := New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: t.TempDir()})
	cookies := inProcessLogin(t, h, "r@example.com")
	view := func(i int) {
		if err := st.AddComment(ctx, 1, reviewer.ID, "matrix", fmt.Sprintf("comment %d", i)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(inProcessGet(t, h, "/reports/1/review", cookies), fmt.Sprintf("comment %d", i)) {
			t.Fatalf("view %d: the new comment is missing", i)
		}
	}
	heap := liveHeap
	for i := range 20 { // warm up: caches of fixed size fill here
		view(i)
	}
	before := heap()
	for i := 20; i < 320; i++ {
		view(i)
	}
	after := heap()
	runtime.KeepAlive(h) // the server and whatever it keeps count until here
	const bound = 30 << 20
	if after > before && after-before > bound {
		t.Errorf("300 (comment, view) cycles grew the live heap by %d MB (from %d to %d MB), bound %d MB",
			(after-before)>>20, before>>20, after>>20, bound>>20)
	}
	t.Logf("live heap: %.1f MB before, %.1f MB after 300 cycles", float64(before)/(1<<20), float64(after)/(1<<20))
}

// TestEditViewCyclesKeepHeapBounded drives 500 cycles of (edit, view) on a
// report of 500 rows in-process: every edit is a new version, read and
// computed again. The live heap may not grow by more than 30 MB and the
// process stays under 300 MB resident: nothing keeps a version's rows,
// result or page once a newer one is there.
func TestEditViewCyclesKeepHeapBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("500 cycles on 500 rows")
	}
	if inOwnProcess(t) {
		return
	}
	app := newTestApp(t)
	ctx := context.Background()
	id := seedBigReport(t, app, 500)
	s := newServer(app.store, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: t.TempDir()})
	h := s.handler()
	cookies := inProcessLogin(t, h, app.users["reviewer"].Email)
	lead := app.users["lead"]
	cycle := func(i int) {
		r, err := app.store.Report(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		title := fmt.Sprintf("500 rows, edit %d", i)
		if err := app.store.RenameReport(ctx, store.Edit{ReportID: id, BaseVersion: r.Version, UserID: lead.ID, Action: "renamed"}, title); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(inProcessGet(t, h, fmt.Sprintf("/reports/%d", id), cookies), title) {
			t.Fatalf("view %d: the new title is missing", i)
		}
	}
	heap := liveHeap
	for i := range 10 { // warm up
		cycle(i)
	}
	before := heap()
	for i := 10; i < 510; i++ {
		cycle(i)
	}
	after := heap()
	rss := residentBytes(t)
	runtime.KeepAlive(h)
	if st := s.svc.MemoStats(); st.Entries > 1 || st.Misses < 500 {
		t.Errorf("memo after 500 versions of one report: %+v, want every version computed and one kept", st)
	}
	const bound = 30 << 20
	if after > before && after-before > bound {
		t.Errorf("500 (edit, view) cycles on 500 rows grew the live heap by %d MB (from %d to %d MB), bound %d MB",
			(after-before)>>20, before>>20, after>>20, bound>>20)
	}
	if rss > 300<<20 {
		t.Errorf("resident after 500 (edit, view) cycles on 500 rows: %d MB, bound 300 MB", rss>>20)
	}
	t.Logf("live heap: %.1f MB before, %.1f MB after 500 cycles; resident %.1f MB", float64(before)/(1<<20), float64(after)/(1<<20), float64(rss)/(1<<20))
}

// inProcessLogin logs email in through h, without a network, and returns
// the session's cookies.
func inProcessLogin(t *testing.T, h http.Handler, email string) []*http.Cookie {
	t.Helper()
	form := url.Values{"email": {email}, "password": {testPassword}}
	req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	cookies := rec.Result().Cookies()
	if len(cookies) == 0 {
		t.Fatalf("login: %d", rec.Code)
	}
	return cookies
}

// inProcessGet fetches path through h with cookies and returns the body,
// failing on anything but 200.
func inProcessGet(t *testing.T, h http.Handler, path string, cookies []*http.Cookie) string {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, rec.Code)
	}
	return rec.Body.String()
}

// liveHeap is the heap in use after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// residentBytes is this process's resident set size (Linux).
func residentBytes(tb testing.TB) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Skipf("no /proc: %v", err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb uint64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb << 10
		}
	}
	tb.Skip("no VmRSS")
	return 0
}
