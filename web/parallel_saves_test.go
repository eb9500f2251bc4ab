package web

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadTest runs the parallel-saves test at full size (make bench): 16
// editors on a report of 1,500 imports.
var loadTest = flag.Bool("load", false, "run the load tests at full size (16 editors, 1,500 imports)")

// TestParallelSavesTold: editors save sections (the title) and evidence
// (soak logs) at once on a report with many imports, through the server
// with its real deadlines. Every answer tells what happened: each success
// is in the report's history, each failure is a 4xx or 503 in words
// (a stale version, a busy database), never a 500 or an empty 200.
func TestParallelSavesTold(t *testing.T) {
	imports, editors, saves := 150, 6, 4
	if *loadTest {
		imports, editors, saves = 1500, 16, 6
	} else if testing.Short() {
		t.Skip("seeds a report of 150 imports")
	}
	app := newTestApp(t)
	t0 := time.Now()
	id := seedManyImports(t, app, imports)
	t.Logf("seeded %d imports in %v", imports, time.Since(t0).Round(time.Millisecond))
	addr := limitedServer(t, app, DefaultLimits)
	base := "http://" + addr
	soak, err := os.ReadFile("../importers/testdata/soak.json")
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		what, key string
		status    int
		body      string
		err       error
	}
	var mu sync.Mutex
	var answers []answer
	var wg sync.WaitGroup
	start := time.Now()
	for e := range editors {
		c := app.client("lead")
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range saves {
				var a answer
				var req *http.Request
				if (e+k)%2 == 0 {
					a.what, a.key = "title", fmt.Sprintf("Editor %d save %d", e, k)
					req, _ = http.NewRequest(http.MethodPost, fmt.Sprintf("%s/reports/%d/title", base, id), strings.NewReader(url.Values{"title": {a.key}}.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				} else {
					a.what, a.key = "soak", fmt.Sprintf("soak-%d-%d.json", e, k)
					var body bytes.Buffer
					mw := multipart.NewWriter(&body)
					w, _ := mw.CreateFormFile("file", a.key)
					w.Write(bytes.Replace(soak, []byte("nightly soak"), []byte(a.key), 1))
					mw.Close()
					req, _ = http.NewRequest(http.MethodPost, fmt.Sprintf("%s/reports/%d/evidence/soak", base, id), &body)
					req.Header.Set("Content-Type", mw.FormDataContentType())
				}
				res, err := c.Do(req)
				if err != nil {
					a.err = err
				} else {
					b, _ := io.ReadAll(res.Body)
					res.Body.Close()
					a.status, a.body = res.StatusCode, string(b)
				}
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	hs, err := app.store.History(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	titles, soaks := map[string]bool{}, 0
	for _, h := range hs {
		if h.Action == "renamed" {
			titles[h.After] = true
		}
		if h.Action == "soak imported" {
			soaks++
		}
	}
	ok, told, okSoaks := 0, map[int]int{}, 0
	for _, a := range answers {
		switch {
		case a.err != nil:
			t.Errorf("%s %s: no answer: %v", a.what, a.key, a.err)
		case a.status < 400:
			if a.status == http.StatusOK && strings.TrimSpace(a.body) == "" {
				t.Errorf("%s %s: an empty 200", a.what, a.key)
			}
			ok++
			if a.what == "title" && !titles[a.key] {
				t.Errorf("title %q answered %d but not stored", a.key, a.status)
			}
			if a.what == "soak" {
				okSoaks++
			}
		default:
			told[a.status]++
			if a.status >= 500 && a.status != http.StatusServiceUnavailable {
				t.Errorf("%s %s: %d", a.what, a.key, a.status)
			}
			if !strings.Contains(a.body, "Reload the page") && !strings.Contains(a.body, "nothing was saved") && !strings.Contains(a.body, "changed") {
				t.Errorf("%s %s: %d not in words: %.300s", a.what, a.key, a.status, between(a.body, "<main", "</main>"))
			}
		}
	}
	if okSoaks != soaks {
		t.Errorf("%d soak uploads answered as saved, %d in the history", okSoaks, soaks)
	}
	t.Logf("%d editors × %d saves on a report of %d imports in %v: %d saved, refused in words %v", editors, saves, imports, took.Round(time.Millisecond), ok, told)
	if ok == 0 {
		t.Error("no save went through")
	}
}
