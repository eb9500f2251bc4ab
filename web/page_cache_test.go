package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"capplan/web/reports"
	"capplan/web/store"
)

// TestReportPageFollowsEveryChange views the demo report page before and
// after each kind of change it shows, twice each (the second view is the
// kept page), and holds that no view misses a change: a comment, an edit
// through the app, a write by another process on the same file, a new day,
// a change of the viewer's role; that viewers never get each other's page;
// and that a one-time message is shown once.
func TestReportPageFollowsEveryChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "capplan.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	app := &testApp{t: t, store: st, users: map[string]store.User{}}
	for k, role := range map[string]store.Role{"admin": store.RoleAdmin, "lead": store.RoleLead, "reviewer": store.RoleReviewer} {
		email := k + "@example.com"
		if k == "admin" {
			email = "admin" // the demo's owner
		}
		u, err := st.CreateUser(ctx, email, k, role, testPassword)
		if err != nil {
			t.Fatal(err)
		}
		app.users[k] = u
	}
	if err := reports.SeedDemo(ctx, st, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	var day atomic.Int64 // days added to the clock
	now := func() time.Time { return time.Now().AddDate(0, 0, int(day.Load())) }
	s := newServer(st, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: t.TempDir(), Now: now})
	app.srv = httptest.NewServer(s.handler())
	defer app.srv.Close()
	lead, reviewer := app.client("lead"), app.client("reviewer")
	page := app.srv.URL + "/reports/1"

	view := func(c *http.Client, want ...string) string {
		t.Helper()
		var first string
		for i := range 2 {
			res, body := do(t, c, "GET", page+"/print", nil)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", page, res.StatusCode)
			}
			for _, w := range want {
				if !strings.Contains(body, w) {
					t.Errorf("view %d: the page does not show %q", i+1, w)
				}
			}
			if i == 0 {
				first = body
			} else if body != first {
				t.Errorf("two views with nothing changed between them differ")
			}
		}
		return first
	}

	// Each viewer their own page, named in it with their role.
	leadPage := view(lead, "<small>(lead)</small>")
	revPage := view(reviewer, "<small>(reviewer)</small>")
	if strings.Contains(leadPage, "<small>(reviewer)</small>") || strings.Contains(revPage, "<small>(lead)</small>") {
		t.Fatal("a viewer was served another viewer's page")
	}

	// A comment (no new version).
	if err := st.AddComment(ctx, 1, app.users["reviewer"].ID, "matrix", "first kept-page comment"); err != nil {
		t.Fatal(err)
	}
	view(lead, "first kept-page comment")

	// An edit through the app, by its owner: the next view of each viewer
	// shows it.
	r, err := st.Report(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.RenameReport(ctx, store.Edit{ReportID: 1, BaseVersion: r.Version, UserID: r.OwnerID, Action: "renamed"}, "Renamed in the app"); err != nil {
		t.Fatal(err)
	}
	view(lead, "Renamed in the app")
	view(reviewer, "Renamed in the app")

	// A write by another process on the same file (as `capplan import`
	// does): this server's own writes count nothing of it.
	other, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.AddComment(ctx, 1, app.users["lead"].ID, "matrix", "written by another process"); err != nil {
		t.Fatal(err)
	}
	other.Close()
	time.Sleep(store.ExternalChangeLag) // how long another process's commit may go unseen
	view(reviewer, "written by another process")

	// A new day: quotes age and expire by the day.
	before := view(lead)
	day.Add(400)
	after := view(lead)
	if before == after {
		t.Error("the page a year later is the same page: computed as of the day before")
	}

	// The viewer's role changes: the page follows at once.
	if err := st.SetRole(ctx, app.users["lead"].ID, store.RoleReviewer); err != nil {
		t.Fatal(err)
	}
	view(lead, "<small>(reviewer)</small>")

	// A change through the app is noted for its session before its answer
	// goes out: that session is served no page built before it.
	n0, err := st.Changes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := do(t, reviewer, "POST", app.srv.URL+"/reports/1/comments", url.Values{"section": {"general"}, "comment": {"noted for my session"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("comment: %d", res.StatusCode)
	}
	n1, err := st.Changes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var cookie string
	for _, ck := range reviewer.Jar.Cookies(res.Request.URL) {
		if ck.Name == sessionCookie {
			cookie = ck.Value
		}
	}
	if mine := s.writes.since(cookie); mine(n0) || !mine(n1) {
		t.Errorf("after its comment, the reviewer's session takes a page built before it: %t (want false), after it: %t", mine(n0), mine(n1))
	}
	if others := s.writes.since("another session"); !others(n0) {
		t.Error("another session was refused a page built before someone else's change")
	}
	view(reviewer, "noted for my session")

	// A one-time message (set by a form's redirect) is on the next view
	// only, though the page without it is kept.
	u, _ := url.Parse(page)
	reviewer.Jar.SetCookies(u, []*http.Cookie{{Name: flashCookie, Value: url.QueryEscape("Sent back to the lead."), Path: "/"}})
	_, body := do(t, reviewer, "GET", page+"/print", nil)
	if !strings.Contains(body, "Sent back to the lead.") {
		t.Error("the one-time message was not shown")
	}
	if _, body := do(t, reviewer, "GET", page+"/print", nil); strings.Contains(body, "Sent back to the lead.") {
		t.Error("the one-time message was shown again")
	}
}

// TestPageCacheBoundsAndWaits: pages are kept within the byte bound, least
// recently viewed dropped first; a page over the per-page bound is not
// kept; a new change number drops every kept page; a view holding an older
// number is served the newer page; and views missing at once wait for one
// rendering.
func TestPageCacheBoundsAndWaits(t *testing.T) {
	ctx := context.Background()
	const page = 1000
	pc := newPageCache(3*(page+page/4), 2*page)
	renders := 0
	render := func(key pageKey) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) {
			renders++
			return bytes.Repeat([]byte{byte('a' + key.report)}, page), nil
		}
	}
	get := func(changes uint64, id int64) {
		t.Helper()
		k := pageKey{view: "page", report: id}
		b, err := pc.get(ctx, changesRead{n: changes, at: time.Now()}, k, nil, false, render(k))
		if err != nil || len(b.raw) != page || b.raw[0] != byte('a'+id) {
			t.Fatalf("page %d: %v, %d bytes", id, err, len(b.raw))
		}
	}
	for id := range int64(3) {
		get(1, id)
	}
	get(1, 0) // 0 is now the most recently viewed: 1 goes first
	get(1, 3)
	if n, b := pc.size(); n != 3 || b > pc.maxBytes {
		t.Errorf("kept %d pages, %d bytes; want 3 within %d", n, b, pc.maxBytes)
	}
	renders = 0
	get(1, 0)
	get(1, 2)
	get(1, 3)
	if renders != 0 {
		t.Errorf("%d of the 3 most recently viewed pages were rendered again", renders)
	}
	get(1, 1)
	if renders != 1 {
		t.Errorf("the least recently viewed page was still kept")
	}

	// Too large to keep.
	big := pageKey{view: "page", report: 9}
	if _, err := pc.get(ctx, changesRead{n: 1, at: time.Now()}, big, nil, false, func(context.Context) ([]byte, error) { return make([]byte, 3*page), nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := pc.pages[big]; ok {
		t.Error("a page over the per-page bound was kept")
	}

	// A new number drops everything; an older one keeps nothing.
	get(2, 0)
	if n, _ := pc.size(); n != 1 {
		t.Errorf("after a change %d pages kept, want the one viewed since", n)
	}
	// A view holding an older number gets a page at least as new: the
	// one it renders is kept under the newer number.
	renders = 0
	get(1, 5)
	get(2, 5)
	get(1, 5)
	if renders != 1 {
		t.Errorf("%d renders for three views of one page, want 1", renders)
	}

	// Concurrent misses: one rendering.
	var n atomic.Int32
	release := make(chan struct{})
	slow := func(context.Context) ([]byte, error) {
		n.Add(1)
		<-release
		return []byte("the page"), nil
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := pc.get(ctx, changesRead{n: 3, at: time.Now()}, pageKey{view: "page", report: 7}, nil, false, slow)
			if err != nil || string(b.raw) != "the page" {
				t.Errorf("waiting view: %v %q", err, b.raw)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let the views pile up (the result holds either way)
	close(release)
	wg.Wait()
	if n.Load() != 1 {
		t.Errorf("20 views missing at once rendered %d times, want 1", n.Load())
	}
}

// TestSupersededPageWhileItsSuccessorRenders: after a change, the first
// view renders and gets the new page; views arriving while it renders get
// the superseded page when they accept it, and wait for the new one when
// they do not (a viewer who made the change); once the new page is there
// nobody gets the old one; and a page older than staleLimit is never
// served stale.
func TestSupersededPageWhileItsSuccessorRenders(t *testing.T) {
	ctx := context.Background()
	pc := newPageCache(1<<20, 1<<20)
	key := pageKey{view: "page", report: 1}
	text := func(s string) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) { return []byte(s), nil }
	}
	yes := func(uint64) bool { return true }
	get := func(n uint64, at time.Time, maybeStale func(uint64) bool, render func(context.Context) ([]byte, error)) string {
		t.Helper()
		b, err := pc.get(ctx, changesRead{n: n, at: at}, key, maybeStale, false, render)
		if err != nil {
			t.Fatal(err)
		}
		return string(b.raw)
	}
	get(1, time.Now(), yes, text("version 1"))

	// until polls the cache until cond holds of it.
	until := func(cond func() bool) {
		for {
			pc.mu.Lock()
			ok := cond()
			pc.mu.Unlock()
			if ok {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	rendering := func() bool { _, ok := pc.flights[key]; return ok }
	waitingSince := func(misses uint64) func() bool { return func() bool { return pc.misses > misses } }

	// The change: the first view renders, slowly.
	release := make(chan struct{})
	first := make(chan string)
	go func() {
		first <- get(2, time.Now(), yes, func(context.Context) ([]byte, error) { <-release; return []byte("version 2"), nil })
	}()
	until(rendering)
	if got := get(2, time.Now(), yes, text("a second rendering")); got != "version 1" {
		t.Errorf("a view during the rendering got %q, want the superseded page", got)
	}
	mine := make(chan string)
	pc.mu.Lock()
	misses := pc.misses
	pc.mu.Unlock()
	go func() {
		mine <- get(2, time.Now(), func(n uint64) bool { return n >= 2 }, text("a second rendering"))
	}()
	until(waitingSince(misses))
	select {
	case got := <-mine:
		t.Fatalf("the viewer who made the change did not wait for its page: got %q", got)
	default:
	}
	close(release)
	if got := <-first; got != "version 2" {
		t.Errorf("the view that rendered got %q", got)
	}
	if got := <-mine; got != "version 2" {
		t.Errorf("the viewer who made the change got %q", got)
	}
	if got := get(2, time.Now(), yes, text("a second rendering")); got != "version 2" {
		t.Errorf("a view after the rendering got %q", got)
	}

	// A page too old is not served stale, even during a rendering.
	pc.mu.Lock()
	pc.pages[key].Value.(*keptPage).read.at = time.Now().Add(-staleLimit - time.Second)
	pc.mu.Unlock()
	release = make(chan struct{})
	go func() {
		first <- get(3, time.Now(), yes, func(context.Context) ([]byte, error) { <-release; return []byte("version 3"), nil })
	}()
	until(rendering)
	pc.mu.Lock()
	misses = pc.misses
	pc.mu.Unlock()
	late := make(chan string)
	go func() { late <- get(3, time.Now(), yes, text("a second rendering")) }()
	until(waitingSince(misses))
	close(release)
	if got, got2 := <-first, <-late; got != "version 3" || got2 != "version 3" {
		t.Errorf("after a change, with the superseded page too old: got %q and %q, want the new page twice", got, got2)
	}
}

// TestOwnWritesBoundTheStalePages: a session that changed something is
// served no page built before its change, others are; notes are forgotten
// after staleLimit.
func TestOwnWritesBoundTheStalePages(t *testing.T) {
	w := newOwnWrites()
	t0 := time.Now()
	w.note("a", 5, t0)
	if w.since("a")(4) || !w.since("a")(5) || !w.since("b")(1) {
		t.Errorf("since: a@4 %t (want false), a@5 %t, b@1 %t (want true)", w.since("a")(4), w.since("a")(5), w.since("b")(1))
	}
	w.note("b", 6, t0.Add(staleLimit))
	if _, ok := w.m["a"]; ok {
		t.Error("a note older than staleLimit was kept")
	}
}

// TestResponsesCompressed: the report page, its JSON and the static assets
// go out gzip-compressed to a client that accepts it, and decompress to
// what a client that does not gets; "q=0" refuses gzip.
func TestResponsesCompressed(t *testing.T) {
	p := newPerfApp(t, 0)
	tok, err := p.store.CreateAPIToken(context.Background(), p.users["reviewer"].ID, "t")
	if err != nil {
		t.Fatal(err)
	}
	raw := &http.Client{Jar: p.lead.Jar, Transport: &http.Transport{DisableCompression: true}}
	for _, u := range []string{
		fmt.Sprintf("/reports/%d", p.demo),
		fmt.Sprintf("/api/v1/reports/%d", p.demo),
		"/static/vendor/echarts/echarts.min.js",
		"/static/app.css",
	} {
		fetch := func(enc string) (*http.Response, []byte) {
			req, _ := http.NewRequest("GET", p.srv.URL+u, nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			if enc != "" {
				req.Header.Set("Accept-Encoding", enc)
			}
			res, err := raw.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", u, res.StatusCode)
			}
			return res, b
		}
		_, plain := fetch("")
		res, zipped := fetch("br, gzip;q=0.8")
		if res.Header.Get("Content-Encoding") != "gzip" || len(zipped) >= len(plain)/2 {
			t.Errorf("%s: Content-Encoding %q, %d bytes against %d", u, res.Header.Get("Content-Encoding"), len(zipped), len(plain))
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped))
		if err != nil {
			t.Fatal(err)
		}
		back, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(back, plain) {
			t.Errorf("%s: gzip body decompresses to %d bytes (%v), plain is %d", u, len(back), err, len(plain))
		}
		if !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("%s: no Vary: Accept-Encoding", u)
		}
		if res, _ := fetch("gzip;q=0"); res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s: gzip;q=0 answered with %q", u, res.Header.Get("Content-Encoding"))
		}
	}
}

// TestGzipMadeOnceNeverWaitedFor: the gzip form of a body is made by one
// caller; a caller meanwhile gets nil (it sends the body as it is) rather
// than wait; afterwards every caller gets the same compressed bytes.
func TestGzipMadeOnceNeverWaitedFor(t *testing.T) {
	b := &body{raw: bytes.Repeat([]byte("a report page "), 1000)}
	b.compressing.Store(true) // another caller is compressing
	if gz := b.gzipped(); gz != nil {
		t.Fatal("a caller got a gzip form still being made")
	}
	b = &body{raw: b.raw}
	first := b.gzipped()
	if len(first) == 0 || len(first) >= len(b.raw)/4 {
		t.Fatalf("gzip form of %d bytes: %d bytes", len(b.raw), len(first))
	}
	if again := b.gzipped(); &again[0] != &first[0] {
		t.Error("the gzip form was made twice")
	}
}
