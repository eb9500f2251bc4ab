package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"capplan/web/demogen/guidellmgen"
)

// 20 CI jobs upload into one report at once: every upload lands (none
// loses a race for the report's version); a client that states a stale
// base version gets 409.
func TestAPIParallelUploadsAllLand(t *testing.T) {
	app := newTestApp(t)
	r := frozenReport(t, app)
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["lead"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	files := make([][]byte, n)
	for i := range files {
		var b bytes.Buffer
		if err := guidellmgen.Write(&b, guidellmgen.Config{Loads: []float64{float64(i + 1)}, RequestsPerRow: 20, Seed: int64(i + 1)}); err != nil {
			t.Fatal(err)
		}
		files[i] = b.Bytes()
	}
	codes := make([]int, n)
	bodies := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, body := apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=run%02d.json", r.ID, i), "application/json", files[i])
			codes[i], bodies[i] = res.StatusCode, body
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusCreated {
			t.Errorf("upload %d: %d %s", i, c, bodies[i])
		}
	}
	if ims, _ := counts(t, app.store, r.ID); ims != n {
		t.Errorf("%d imports, want %d", ims, n)
	}

	// A stated base version that is stale: 409, nothing imported.
	var b bytes.Buffer
	guidellmgen.Write(&b, guidellmgen.Config{Loads: []float64{50}, RequestsPerRow: 20, Seed: 99})
	res, body := apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=late.json&version=%d", r.ID, r.Version), "application/json", b.Bytes())
	if res.StatusCode != http.StatusConflict || !bytes.Contains([]byte(body), []byte(fmt.Sprintf("not the version %d this upload is based on", r.Version))) {
		t.Errorf("stale version: %d %s", res.StatusCode, body)
	}
	cur, _ := app.store.Report(context.Background(), r.ID)
	res, body = apiPost(t, app, tok, fmt.Sprintf("/api/v1/reports/%d/results?name=late.json&version=%d", r.ID, cur.Version), "application/json", b.Bytes())
	if res.StatusCode != http.StatusCreated {
		t.Errorf("current version: %d %s", res.StatusCode, body)
	}
}
