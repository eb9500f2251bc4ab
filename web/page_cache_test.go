package web

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"capplan/web/store"
)

func TestReportPageCacheSeesEveryWrite(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	id, _ := app.store.CreateReport(ctx, app.users["lead"], "Before")
	u := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	lead := app.client("lead")
	if _, page := do(t, lead, "GET", u, nil); !strings.Contains(page, "Before") {
		t.Fatal("first view")
	}
	// A write through the store is seen on the next view, cache or not.
	if err := app.store.RenameReport(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: app.users["lead"].ID, Action: "renamed"}, "After"); err != nil {
		t.Fatal(err)
	}
	if _, page := do(t, lead, "GET", u, nil); !strings.Contains(page, "After") {
		t.Error("the page still shows the old title after a write")
	}
	// Another user's view of the same report is not the lead's.
	if _, page := do(t, app.client("reviewer"), "GET", u, nil); strings.Contains(page, `data-testid="edit-contract"`) {
		t.Error("the reviewer got the lead's cached page with edit buttons")
	}
}

func TestPageCacheExpires(t *testing.T) {
	var pc pageCache
	now := time.Now()
	k := pageKey{report: 1, gen: 2, day: "2026-11-29", user: 3}
	pc.put(k, []byte("page"), now)
	if b, ok := pc.get(k, now.Add(pageTTL/2)); !ok || string(b) != "page" {
		t.Fatalf("fresh entry missing")
	}
	if _, ok := pc.get(k, now.Add(pageTTL+time.Millisecond)); ok {
		t.Error("an expired entry was served")
	}
	if _, ok := pc.get(pageKey{report: 1, gen: 3, day: "2026-11-29", user: 3}, now); ok {
		t.Error("an entry of another generation was served")
	}
}

func TestPageCacheRendersABurstOnce(t *testing.T) {
	var pc pageCache
	now := time.Now()
	k := pageKey{report: 1, gen: 1, day: "2026-11-29", user: 1}
	var mu sync.Mutex
	renders := 0
	release := make(chan struct{})
	render := func() ([]byte, error) {
		mu.Lock()
		renders++
		mu.Unlock()
		<-release
		return []byte("page"), nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, err := pc.getOrRender(k, now, render); err != nil || string(b) != "page" {
				t.Errorf("got %q, %v", b, err)
			}
		}()
	}
	// Let every caller reach the cache before the one render finishes.
	for {
		pc.mu.Lock()
		_, pending := pc.pending[k]
		pc.mu.Unlock()
		if pending {
			break
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if renders != 1 {
		t.Errorf("%d renders for one burst, want 1", renders)
	}
}
