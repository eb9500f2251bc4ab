package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"capplan/web/reports"
)

// TestReportViewsLeaveTheSharedComputationAlone renders every view of the
// demo report (page, all rows, history, exit check, CSV, workbook, compare,
// JSON API headline and whole) plus a comment and a stale save, all served
// from the one memoised computation of its version, and then holds that
// computation equal to one made from scratch: no view changed it in place.
func TestReportViewsLeaveTheSharedComputationAlone(t *testing.T) {
	p := newPerfApp(t, 0)
	s := newServer(p.store, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: t.TempDir()})
	p.srv = httptest.NewServer(s.handler())
	t.Cleanup(p.srv.Close)
	admin := p.client("admin")
	tok, err := p.store.CreateAPIToken(context.Background(), p.users["reviewer"].ID, "memo")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rep, err := s.svc.Load(ctx, p.demo)
	if err != nil {
		t.Fatal(err)
	}
	cands := rep.Candidates
	base := fmt.Sprintf("%s/reports/%d", p.srv.URL, p.demo)
	gets := []string{base, base + "?rows=all", base + "/history", base + "/exitcheck", base + "/matrix.csv", base + "/export.xlsx",
		fmt.Sprintf("%s/compare?s=%d&s=%d.c%d", p.srv.URL, p.demo, p.demo, cands[len(cands)-1].ID)}
	for _, u := range gets {
		for _, hx := range []bool{false, true} {
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			if hx {
				req.Header.Set("HX-Request", "true")
			}
			res, err := admin.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d", u, res.StatusCode)
			}
		}
	}
	for _, q := range []string{"", "?include=rows"} {
		p.get(t, http.DefaultClient, fmt.Sprintf("%s/api/v1/reports/%d%s", p.srv.URL, p.demo, q), "Authorization", "Bearer "+tok)
	}
	post := func(path string, form url.Values) {
		res, err := admin.PostForm(base+path, form)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	post("/comments", url.Values{"section": {"matrix"}, "comment": {"a comment, no new version"}})
	post("/scenarios", url.Values{"version": {"1"}, "name": {"x"}, "users": {"-3"}}) // stale and refused: the form again

	if st := s.svc.MemoStats(); st.Misses != 1 || st.Hits < uint64(len(gets)) {
		t.Fatalf("the views were not served from one memoised computation: %+v", st)
	}
	shared, err := s.svc.Load(ctx, p.demo)
	if err != nil {
		t.Fatal(err)
	}
	if &shared.Result.Matrix[0] != &rep.Result.Matrix[0] {
		t.Fatalf("the report was computed again")
	}
	if !strings.Contains(fmt.Sprint(shared.Comments), "a comment, no new version") {
		t.Errorf("the comment is not shown")
	}
	fresh, err := (&reports.Service{Store: p.store}).Load(ctx, p.demo)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(shared.In, fresh.In) {
		t.Errorf("a view changed the shared inputs")
	}
	if !reflect.DeepEqual(shared.Result, fresh.Result) {
		t.Errorf("a view changed the shared result")
	}
	if !reflect.DeepEqual(shared.Rows, fresh.Rows) || !reflect.DeepEqual(shared.Imports, fresh.Imports) ||
		!reflect.DeepEqual(shared.Candidates, fresh.Candidates) || !reflect.DeepEqual(shared.Amendments, fresh.Amendments) {
		t.Errorf("a view changed the shared records")
	}
}
