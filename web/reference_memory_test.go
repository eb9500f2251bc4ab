package web

import (
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestReferenceHugeRowBoundedMemory uploads InferenceX rows whose one row
// holds a 300 MB string through the API: the refusal (422, naming the row)
// comes after the server's heap grew by well under 100 MB, the row never
// held whole.
func TestReferenceHugeRowBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 300 MB")
	}
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "Huge row")
	tok, _ := app.store.CreateAPIToken(ctx, app.users["lead"].ID, "ci")
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		mw.WriteField("source", "InferenceX")
		mw.WriteField("date", "2026-11-20")
		f, _ := mw.CreateFormFile("files", "agg_bmk.json")
		io.WriteString(f, `[{"hw": "h100", "intvty": 1, "output_tput_per_gpu": 1, "isl": 1024, "osl": 1024, "model": "`)
		chunk := []byte(strings.Repeat("m", 1<<16))
		for range 300 << 20 / len(chunk) {
			if _, err := f.Write(chunk); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		io.WriteString(f, `"}]`)
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/v1/reports/%d/reference", app.srv.URL, id), pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	var res *http.Response
	var body []byte
	start := time.Now()
	mb := heapPeak(func() {
		var err error
		if res, err = http.DefaultClient.Do(req); err != nil {
			t.Error(err)
			return
		}
		body, _ = io.ReadAll(res.Body)
		res.Body.Close()
	})
	t.Logf("300 MB row: peak heap %.1f MB above the start, %v: %d %s", mb, time.Since(start).Round(time.Millisecond), res.StatusCode, body)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "larger than 64 KB") {
		t.Errorf("%d %s", res.StatusCode, body)
	}
	if mb > 100 {
		t.Errorf("the server's heap grew %.1f MB for a 300 MB row", mb)
	}
}

// heapPeak runs fn and returns the largest heap seen meanwhile (sampled
// every millisecond), in MB above the heap before it; the collector runs
// at GOGC=50 so the figure tracks what is held, not the pacer's slack.
func heapPeak(fn func()) float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(50))
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(time.Millisecond)
		defer tk.Stop()
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	if peak.Load() < base {
		return 0
	}
	return float64(peak.Load()-base) / (1 << 20)
}
