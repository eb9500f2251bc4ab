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
	"slices"
	"strings"
	"testing"

	"capplan/web/reports"
	"capplan/web/store"
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
	gets := []string{base, base + "/results", base + "/print?rows=all", base + "/history", base + "/exitcheck", base + "/matrix.csv", base + "/export.xlsx",
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

// TestChartsDrawnOncePerVersionMatchAFreshPage compares the demo report's
// page from a server that draws its charts once per computed version with
// the page from one that computes and draws everything for each view: the
// same bytes for the first and a later view, and again after a change that
// moves the charts (a new version).
func TestChartsDrawnOncePerVersionMatchAFreshPage(t *testing.T) {
	p := newPerfApp(t, 0)
	memo, plain := memoAndPlain(t, p)
	page := func(s *Server) string {
		srv := httptest.NewServer(s.handler())
		defer srv.Close()
		p.srv = srv
		c := p.client("admin")
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/reports/%d/print", srv.URL, p.demo), nil)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("page: %d", res.StatusCode)
		}
		return strings.ReplaceAll(string(b), srv.URL, "")
	}
	charts := func(page string) int { return strings.Count(page, `class="chart"`) }
	first, again, fresh := page(memo), page(memo), page(plain)
	if charts(fresh) < 3 {
		t.Fatalf("the demo page draws %d charts", charts(fresh))
	}
	if first != fresh || again != fresh {
		t.Errorf("the page with charts drawn once per version differs from a fresh one")
	}

	// Scenarios at twice the volume: the cost charts move.
	ctx := context.Background()
	rep, err := memo.svc.Load(ctx, p.demo)
	if err != nil {
		t.Fatal(err)
	}
	scs := slices.Clone(rep.In.Scenarios)
	for i := range scs {
		scs[i].MonthlyRequests *= 2
	}
	e := store.Edit{ReportID: p.demo, BaseVersion: rep.Version, UserID: p.users["admin"].ID, Action: "scenarios changed", Section: reports.SecScenarios}
	if err := p.store.SaveSection(ctx, e, reports.SecScenarios, scs); err != nil {
		t.Fatal(err)
	}
	after, freshAfter := page(memo), page(plain)
	if after != freshAfter {
		t.Errorf("after a new version the page with charts drawn once per version differs from a fresh one")
	}
	if after == first {
		t.Errorf("doubling the scenarios' volume changed nothing on the page")
	}
}

// TestAPIEncodedOncePerVersionMatchesAFreshAnswer compares the JSON API's
// answers (headline and whole) from a server that encodes a version's
// inputs and result once with those of one that encodes them for each
// request: the same bytes, again after a new version and after a comment.
func TestAPIEncodedOncePerVersionMatchesAFreshAnswer(t *testing.T) {
	p := newPerfApp(t, 0)
	memo, plain := memoAndPlain(t, p)
	ctx := context.Background()
	tok, err := p.store.CreateAPIToken(ctx, p.users["reviewer"].ID, "api")
	if err != nil {
		t.Fatal(err)
	}
	get := func(s *Server, query string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/v1/reports/%d%s", p.demo, query), nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		s.handler().ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", query, rec.Code)
		}
		return rec.Body.String()
	}
	same := func(when string) {
		t.Helper()
		for _, q := range []string{"", "?include=rows"} {
			first, again, fresh := get(memo, q), get(memo, q), get(plain, q)
			if first != fresh || again != fresh {
				t.Errorf("%s: the API answer %q encoded once per version differs from a fresh one", when, q)
			}
		}
	}
	same("first")
	before := get(memo, "")
	rep, err := memo.svc.Load(ctx, p.demo)
	if err != nil {
		t.Fatal(err)
	}
	scs := slices.Clone(rep.In.Scenarios)
	for i := range scs {
		scs[i].MonthlyRequests *= 2
	}
	e := store.Edit{ReportID: p.demo, BaseVersion: rep.Version, UserID: p.users["admin"].ID, Action: "scenarios changed", Section: reports.SecScenarios}
	if err := p.store.SaveSection(ctx, e, reports.SecScenarios, scs); err != nil {
		t.Fatal(err)
	}
	same("after a new version")
	if get(memo, "") == before {
		t.Errorf("doubling the scenarios' volume changed nothing in the API's answer")
	}
	if st := memo.svc.MemoStats(); st.Hits == 0 {
		t.Errorf("the API was not served from the memo: %+v", st)
	}
}

// memoAndPlain are two servers over p's store: one with the service's
// memo of computed versions, one whose service computes every load afresh.
func memoAndPlain(t *testing.T, p *perfApp) (memo, plain *Server) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	memo = newServer(p.store, log, Config{DataDir: t.TempDir()})
	plain = newServer(p.store, log, Config{DataDir: t.TempDir()})
	plain.svc = &reports.Service{Store: p.store}
	return memo, plain
}
