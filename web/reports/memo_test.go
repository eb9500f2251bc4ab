package reports

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
	"capplan/web/store"
)

// memoApp is a database with the demo report, a service with a memo and a
// clock the test moves, and the admin's account.
type memoApp struct {
	st    *store.Store
	svc   *Service
	admin store.User
	id    int64
	now   time.Time
}

func newMemoApp(t *testing.T) *memoApp {
	t.Helper()
	ctx := context.Background()
	st := mustOpenDB(t)
	admin, err := st.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	if err := SeedDemo(ctx, st, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	a := &memoApp{st: st, admin: admin, id: 1, now: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
	a.svc = New(st, "", func() time.Time { return a.now })
	return a
}

func (a *memoApp) load(t *testing.T) *Report {
	t.Helper()
	rep, err := a.svc.Load(context.Background(), a.id)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// fresh is the report computed from scratch, by a service without a memo.
func (a *memoApp) fresh(t *testing.T) *Report {
	t.Helper()
	rep, err := (&Service{Store: a.st, Now: func() time.Time { return a.now }}).Load(context.Background(), a.id)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// sameAsFresh fails unless rep holds what a computation from scratch gives.
func (a *memoApp) sameAsFresh(t *testing.T, rep *Report, when string) {
	t.Helper()
	f := a.fresh(t)
	if !reflect.DeepEqual(rep.In, f.In) {
		t.Errorf("%s: the memoised inputs differ from a fresh computation's", when)
	}
	if !reflect.DeepEqual(rep.Result, f.Result) {
		t.Errorf("%s: the memoised result differs from a fresh computation's", when)
	}
	if !reflect.DeepEqual(rep.Rows, f.Rows) || !reflect.DeepEqual(rep.Imports, f.Imports) || !reflect.DeepEqual(rep.Candidates, f.Candidates) ||
		!reflect.DeepEqual(rep.Amendments, f.Amendments) || !reflect.DeepEqual(rep.Settings, f.Settings) || !rep.SnapshotAt.Equal(f.SnapshotAt) {
		t.Errorf("%s: the memoised records differ from a fresh read", when)
	}
}

func (a *memoApp) edit(t *testing.T, section string) store.Edit {
	t.Helper()
	r, err := a.st.Report(context.Background(), a.id)
	if err != nil {
		t.Fatal(err)
	}
	return store.Edit{ReportID: a.id, BaseVersion: r.Version, UserID: a.admin.ID, Action: section + " changed", Section: section}
}

func TestLoadIsMemoisedPerVersion(t *testing.T) {
	a := newMemoApp(t)
	ctx := context.Background()
	first := a.load(t)
	second := a.load(t)
	if s := a.svc.MemoStats(); s.Misses != 1 || s.Hits != 1 || s.Entries != 1 {
		t.Fatalf("two loads of one version: %+v, want one miss then one hit", s)
	}
	if &first.Rows[0] != &second.Rows[0] || &first.Result.Matrix[0] != &second.Result.Matrix[0] {
		t.Errorf("the second load of a version computed it again")
	}

	// A comment (and its history entry) changes no version: the page still
	// shows it, from the memoised computation.
	if err := a.st.AddComment(ctx, a.id, a.admin.ID, "matrix", "look at row 3"); err != nil {
		t.Fatal(err)
	}
	rep := a.load(t)
	if len(rep.Comments) != len(first.Comments)+1 || rep.Comments[len(rep.Comments)-1].Body != "look at row 3" {
		t.Errorf("comments after a comment: %+v", rep.Comments)
	}
	if rep.HistoryTotal != first.HistoryTotal+1 || rep.History[0].ID == first.History[0].ID {
		t.Errorf("history after a comment: %d changes, newest %d; was %d, newest %d",
			rep.HistoryTotal, rep.History[0].ID, first.HistoryTotal, first.History[0].ID)
	}
	if s := a.svc.MemoStats(); s.Misses != 1 {
		t.Errorf("a comment recomputed the report: %+v", s)
	}

	// A change of the report is a new version: computed again, and the
	// older version leaves the memo.
	e := a.edit(t, SecSettings)
	set := first.Settings
	set.MaxBoxes = first.Settings.MaxBoxes + 7
	if err := a.st.SaveSection(ctx, e, SecSettings, set); err != nil {
		t.Fatal(err)
	}
	rep = a.load(t)
	if rep.In.MaxBoxes != set.MaxBoxes || rep.Version != first.Version+1 {
		t.Errorf("after a settings change: max boxes %d version %d, want %d and %d", rep.In.MaxBoxes, rep.Version, set.MaxBoxes, first.Version+1)
	}
	if s := a.svc.MemoStats(); s.Misses != 2 || s.Entries != 1 {
		t.Errorf("after a new version: %+v, want a second miss and one entry", s)
	}
	a.sameAsFresh(t, rep, "after a settings change")
	// The rows' figures, which never change once stored, are taken from
	// the earlier version rather than decoded again.
	if len(first.Rows[0].Row.Samples) == 0 || &rep.Rows[0].Row.Samples[0] != &first.Rows[0].Row.Samples[0] {
		t.Errorf("the new version decoded the stored rows' per-request records again")
	}

	// What the lead types in about a row is read afresh, never written into
	// the earlier version's rows.
	row := first.Rows[0]
	firstObserved, _ := json.Marshal(row.Row.Observed)
	obs := row.Row.Observed
	gib := 71.5
	if obs.PeakMemoryGiB != nil {
		gib = *obs.PeakMemoryGiB + 1
	}
	obs.PeakMemoryGiB = &gib
	if err := a.st.SetObserved(ctx, a.edit(t, "matrix"), row.ID, obs); err != nil {
		t.Fatal(err)
	}
	rep = a.load(t)
	if p := rep.Rows[0].Row.Observed.PeakMemoryGiB; p == nil || *p != gib {
		t.Errorf("peak memory after the lead typed %v: %v", gib, p)
	}
	if now, _ := json.Marshal(first.Rows[0].Row.Observed); string(now) != string(firstObserved) {
		t.Errorf("the earlier version's row changed: %+v", first.Rows[0].Row.Observed)
	}
	a.sameAsFresh(t, rep, "after a row's observed figures changed")
}

func TestLoadMemoFollowsSharedQuotesAndTheDay(t *testing.T) {
	a := newMemoApp(t)
	ctx := context.Background()
	before := a.load(t)
	if len(before.Quotes) != 1 || len(before.Result.Quotes) != 1 {
		t.Fatalf("the demo has %d quotes attached", len(before.Quotes))
	}

	// A library quote is shared across reports: editing it moves the
	// report's figures at once.
	q := before.Quotes[0]
	q.Q.Name = "renamed in the library"
	if _, err := a.st.SaveQuote(ctx, a.admin.ID, q); err != nil {
		t.Fatal(err)
	}
	after := a.load(t)
	if after.In.Quotes[0].Name != "renamed in the library" || after.Result.Quotes[0].Name != "renamed in the library" {
		t.Errorf("after a library edit the report computes with quote %q", after.In.Quotes[0].Name)
	}
	a.sameAsFresh(t, after, "after a library quote edit")

	// The next day the evidence is a day older: computed again as of then.
	a.now = a.now.Add(24 * time.Hour)
	next := a.load(t)
	if next.In.AsOf != "2026-03-11" || next.Result.AsOf != next.In.AsOf {
		t.Errorf("as of %q / %q the next day", next.In.AsOf, next.Result.AsOf)
	}
	a.sameAsFresh(t, next, "the next day")

	// Approved: computed from the snapshot, and a later library edit (no
	// new version of an approved report) leaves it as approved.
	snap, err := EncodeSnapshot(next.In)
	if err != nil {
		t.Fatal(err)
	}
	e := a.edit(t, "review")
	if err := a.st.Transition(ctx, e, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	e = a.edit(t, "review")
	if err := a.st.Approve(ctx, e, snap); err != nil {
		t.Fatal(err)
	}
	approved := a.load(t)
	if approved.SnapshotAt.IsZero() || !approved.Review.Approved() {
		t.Fatalf("approval: snapshot at %v, state %s", approved.SnapshotAt, approved.Review.State)
	}
	q = approved.Quotes[0]
	q.Q.Name = "renamed after approval"
	if _, err := a.st.SaveQuote(ctx, a.admin.ID, q); err != nil {
		t.Fatal(err)
	}
	later := a.load(t)
	if later.In.Quotes[0].Name != "renamed in the library" || later.Quotes[0].Q.Name != "renamed after approval" {
		t.Errorf("approved report after a library edit: computes with %q, lists %q", later.In.Quotes[0].Name, later.Quotes[0].Q.Name)
	}
	a.sameAsFresh(t, later, "approved, after a library edit")

	// A revision started from it changes its review links, not its version.
	if _, err := a.st.Revise(ctx, a.admin, a.id); err != nil {
		t.Fatal(err)
	}
	if rv := a.load(t).Review; len(rv.Successors) != 1 {
		t.Errorf("review links after a revision: %+v", rv)
	}
}

func TestLoadComputesAVersionOnceForConcurrentReaders(t *testing.T) {
	a := newMemoApp(t)
	const readers = 12
	var wg sync.WaitGroup
	got := make([]*Report, readers)
	for i := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rep, err := a.svc.Load(context.Background(), a.id)
			if err != nil {
				t.Error(err)
				return
			}
			got[i] = rep
		}()
	}
	wg.Wait()
	if s := a.svc.MemoStats(); s.Misses != 1 || s.Hits != readers-1 {
		t.Errorf("%d concurrent loads of one version: %+v, want one computation", readers, s)
	}
	for _, rep := range got[1:] {
		if rep != nil && got[0] != nil && &rep.Result.Matrix[0] != &got[0].Result.Matrix[0] {
			t.Errorf("concurrent loads got different computations")
			break
		}
	}
}

func TestMemoWaiterOutlivesAComputationWhoseCallerLeft(t *testing.T) {
	m := newMemo[int, string](1<<20, 8, nil)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	go m.get(ctx, 1, func() (string, int64, error) {
		close(started)
		<-ctx.Done()
		return "", 0, ctx.Err()
	})
	<-started
	var calls atomic.Int32
	done := make(chan string)
	go func() {
		v, err := m.get(context.Background(), 1, func() (string, int64, error) {
			calls.Add(1)
			return "mine", 4, nil
		})
		if err != nil {
			t.Error(err)
		}
		done <- v
	}()
	cancel()
	if v := <-done; v != "mine" || calls.Load() != 1 {
		t.Errorf("the waiter got %q after %d computations of its own, want %q after 1", v, calls.Load(), "mine")
	}

	// A waiter whose own request leaves stops waiting.
	block := make(chan struct{})
	go m.get(context.Background(), 2, func() (string, int64, error) { <-block; return "x", 1, nil })
	for m.stats().Misses < 3 {
		runtime.Gosched()
	}
	wctx, wcancel := context.WithCancel(context.Background())
	wcancel()
	if _, err := m.get(wctx, 2, func() (string, int64, error) { return "y", 1, nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled waiter: %v", err)
	}
	close(block)
}

func TestMemoIsBounded(t *testing.T) {
	m := newMemo[int, int](100, 3, nil)
	put := func(k int, size int64) {
		if _, err := m.get(context.Background(), k, func() (int, int64, error) { return k, size, nil }); err != nil {
			t.Fatal(err)
		}
	}
	for k := range 10 {
		put(k, 10)
	}
	if s := m.stats(); s.Entries != 3 || s.Bytes != 30 {
		t.Errorf("bounded to 3 entries: %+v", s)
	}
	put(7, 10) // kept, most recent
	put(20, 60)
	put(21, 40) // 120 bytes: the two least recently used (9, then 7) go
	if s := m.stats(); s.Bytes != 100 || s.Entries != 2 {
		t.Errorf("bounded to 100 bytes: %+v", s)
	}
	if _, ok := m.items[7]; ok {
		t.Errorf("the least recently used entry stayed")
	}
	if _, ok := m.items[20]; !ok {
		t.Errorf("a recent entry went")
	}
	put(30, 1000) // larger than the bound: returned, not kept
	if _, ok := m.items[30]; ok {
		t.Errorf("a value larger than the whole bound was kept")
	}
}

// TestMemoSizeEstimateTracksTheHeap holds the estimate a computed report
// is bounded by within a factor of two of the live heap it keeps, for a
// report of 500 rows.
func TestMemoSizeEstimateTracksTheHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("500 rows")
	}
	ctx := context.Background()
	st := mustOpenDB(t)
	admin, err := st.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.CreateReport(ctx, admin, "500 rows")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SaveContract(ctx, store.Edit{ReportID: id, BaseVersion: 1, UserID: admin.ID, Action: "contract edited"}, DemoContract(), nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Freeze(ctx, store.Edit{ReportID: id, BaseVersion: 2, UserID: admin.ID, Action: "contract frozen"}); err != nil {
		t.Fatal(err)
	}
	loads := make([]float64, 500)
	for i := range loads {
		loads[i] = float64(i + 1)
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(guidellmgen.Write(pw, guidellmgen.Config{Loads: loads, RequestsPerRow: 40})) }()
	batch := NewImportBatch(t.TempDir(), 0)
	defer batch.Close()
	if err := batch.Add("rows.json", pr); err != nil {
		t.Fatal(err)
	}
	if _, err := CommitLatest(ctx, st, batch, id, admin.ID); err != nil {
		t.Fatal(err)
	}
	svc := &Service{Store: st}
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	if _, err := svc.Load(ctx, id); err != nil { // warm up
		t.Fatal(err)
	}
	before := heap()
	rep, err := svc.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	kept := heap() - before
	c := &computed{Rows: rep.Rows}
	est := c.size()
	runtime.KeepAlive(rep)
	t.Logf("500 rows: estimate %.1f MB, live heap kept %.1f MB", float64(est)/(1<<20), float64(kept)/(1<<20))
	if est < kept/2 || est > kept*2 {
		t.Errorf("estimate %d bytes for a computed report keeping %d bytes of heap: off by more than 2x", est, kept)
	}
}
