package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/xlsx"
)

// seedReviewReport builds, through the store, a frozen report owned by lead
// whose exit check fails on exactly one item: the recommendation has no
// owner. fixRecommendation fixes it.
func seedReviewReport(t testing.TB, app *testApp) int64 {
	t.Helper()
	ctx := context.Background()
	st, lead := app.store, app.users["lead"]
	id, err := st.CreateReport(ctx, lead, "Review walk")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(action string) store.Edit {
		r, err := st.Report(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return store.Edit{ReportID: id, BaseVersion: r.Version, UserID: lead.ID, Action: action, Section: "test"}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	c := reports.DemoContract()
	must(st.SaveContract(ctx, edit("contract"), c, nil))
	must(st.Freeze(ctx, edit("freeze")))

	var rows []planner.Row
	for i, l := range []struct{ load, rate, e2e float64 }{{1, 0.4, 5}, {2, 0.8, 6}, {4, 1.5, 8}, {8, 3, 12}, {10, 3.2, 16}} {
		rows = append(rows, planner.Row{
			Source: planner.Source{File: "sweep.json", SHA256: strings.Repeat("ab", 32), Format: "guidellm", FormatVersion: "0.5", ToolVersion: "0.5.0"},
			Model:  c.BaselineModel, Index: i, LoadKind: planner.LoadConcurrency, Load: planner.F(l.load),
			Attempted: planner.I(200), Successful: planner.I(200), Errored: planner.I(0), Incomplete: planner.I(0),
			DurationS: planner.F(60), RequestRate: planner.F(l.rate), PromptTokensMean: planner.F(512), OutputTokensMean: planner.F(256),
			TTFT:     planner.Stat{P50: planner.F(0.2), P95: planner.F(0.5), P99: planner.F(0.7)},
			E2E:      planner.Stat{P50: planner.F(l.e2e - 1), P95: planner.F(l.e2e), P99: planner.F(l.e2e + 1)},
			Observed: planner.Observed{Headroom: planner.F(0.2), PeakMemoryGiB: planner.F(64), OOMChecked: true},
		})
	}
	im := store.Import{FileName: "sweep.json", SHA256: strings.Repeat("ab", 32), Format: "guidellm", FormatVersion: "0.5", ToolVersion: "0.5.0", Model: c.BaselineModel, SizeBytes: 1234}
	_, err = st.AddImport(ctx, edit("import"), im, rows)
	must(err)

	date := c.TestDate // evidence of the test's day: none may be dated after it
	fig := func(a, unit string) *planner.Figure { return planner.Fig(a, unit, "test evidence", date) }
	must(st.SaveSection(ctx, edit("overload"), reports.SecOverload, planner.OverloadTest{Sent: "20 streams for 60 s", Outcome: planner.OverloadRejected429,
		RetryAfter: true, WorkerHealthy: true, Recovered: true, Date: date}))
	must(st.SaveSection(ctx, edit("costs"), reports.SecSelfHosted, planner.SelfHostedCosts{
		EquipmentMode: "purchase", PurchasePrice: fig("36000", "EUR"), DepreciationMonths: 36,
		PowerWatts: fig("0", "W"), PowerPricePerKWh: fig("0.30", "EUR/kWh"),
		Facilities: fig("0", "EUR/month"), Hosting: fig("400", "EUR/month"), Support: fig("0", "EUR/month"), Software: fig("0", "EUR/month"),
		Monitoring: fig("0", "EUR/month"), Backup: fig("0", "EUR/month"),
		LabourHoursPerMonth: fig("10", "h/month"), LabourRate: fig("60", "EUR/h"), DowntimeAllowance: fig("0", "EUR/month"),
	}))
	must(st.SaveSection(ctx, edit("scenarios"), reports.SecScenarios, []planner.Scenario{
		// 5 % of the month in its busiest hour: the expected 1.11 req/s
		// fits the one box, which holds the objective with random
		// arrivals up to 1.336 req/s (3 req/s closed loop).
		{Name: "low", MonthlyRequests: 40_000, BusyHourShare: 0.05},
		{Name: "expected", MonthlyRequests: 80_000, BusyHourShare: 0.05},
		{Name: "peak", MonthlyRequests: 200_000, BusyHourShare: 0.05},
	}))
	// The peak's busy hour needs more boxes: the recommendation says why
	// the one-box plan stands.
	must(st.SaveSection(ctx, edit("recommendation"), reports.SecRecommendation, planner.Recommendation{Decision: "keep", ReviewDate: time.Now().AddDate(0, 3, 0).Format("2006-01-02"),
		BeyondPlan: "the peak month is served by the API fallback",
		Gates: []planner.NonFinancialGate{{Name: "data location", Pass: true}, {Name: "capability", Pass: true}, {Name: "contract", Pass: true},
			{Name: "recovery", Pass: true}, {Name: "exit", Pass: true}}}))
	_, err = st.SaveCandidate(ctx, edit("candidate"), 0, planner.Candidate{Name: "baseline", Baseline: true, Model: c.BaselineModel,
		Gate: &planner.RegressionGate{Gate: "support-set", Cases: 200, Pass: true, Date: date}})
	must(err)
	// A quote giving EUR 30 per 1,000: (512 x 25 + 256 x 67.1875) / 1M = 0.03.
	qid, err := st.SaveQuote(ctx, app.users["finance"].ID, store.Quote{Q: planner.Quote{Name: "hosted-api", Provider: "Example AI",
		InputPerMTokens: fig("25", "EUR/1M tokens"), OutputPerMTokens: fig("67.1875", "EUR/1M tokens")}, Currency: "EUR", Source: "price list", EvidenceDate: date})
	must(err)
	must(st.AttachQuote(ctx, edit("quote"), qid))
	return id
}

// fixRecommendation gives the recommendation its owner, as the lead would.
func fixRecommendation(t testing.TB, app *testApp, id int64) {
	t.Helper()
	ctx := context.Background()
	r, _ := app.store.Report(ctx, id)
	var rec planner.Recommendation
	if _, err := app.store.Section(ctx, id, reports.SecRecommendation, &rec); err != nil {
		t.Fatal(err)
	}
	rec.Owner = "A. Lead"
	e := store.Edit{ReportID: id, BaseVersion: r.Version, UserID: app.users["lead"].ID, Action: "recommendation", Section: "recommendation"}
	if err := app.store.SaveSection(ctx, e, reports.SecRecommendation, rec); err != nil {
		t.Fatal(err)
	}
}

func (a *testApp) version(id int64) string {
	r, err := a.store.Report(context.Background(), id)
	if err != nil {
		a.t.Fatal(err)
	}
	return fmt.Sprint(r.Version)
}

func TestReviewWorkflow(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	lead, rev := app.client("lead"), app.client("reviewer")

	// The exit check shows the one failing item with a link to fix it.
	res, body := do(t, rev, "GET", base+"/print", nil)
	if res.StatusCode != 200 || !strings.Contains(body, `data-testid="exitcheck"`) {
		t.Fatalf("report page: %d", res.StatusCode)
	}
	if !strings.Contains(body, `data-testid="exit-recommendation" data-pass="false"`) || !strings.Contains(body, `href="#recommendation"`) {
		t.Fatalf("the recommendation item should fail with a link:\n%s", between(body, `id="exitcheck"`, "</section>"))
	}
	if n := strings.Count(body, `data-pass="false"`); n != 1 {
		t.Fatalf("%d failing items, want 1:\n%s", n, between(body, `id="exitcheck"`, "</section>"))
	}

	// Submitting with a failing item asks first: the review bar lists it
	// with a box to tick, and the report stays a draft.
	_, body = do(t, lead, "GET", base+"/print", nil)
	ask := between(body, `data-testid="submit-ask"`, "</details>")
	if !strings.Contains(ask, `data-testid="submit-failing"`) || !strings.Contains(ask, `href="#recommendation"`) || !strings.Contains(ask, `data-testid="submit-confirm"`) || !strings.Contains(ask, `data-testid="submit-go-back"`) {
		t.Errorf("the submit form does not list the failing item with a confirmation:\n%s", ask)
	}
	if strings.Contains(body, `data-testid="submit-review"`) {
		t.Error("a plain submit button is offered while an item fails")
	}
	res, body = do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "1 exit-check item fails: Recommendation") || !strings.Contains(body, `open data-testid="submit-ask"`) {
		t.Fatalf("submit unconfirmed with a failing item: %d, want 422 naming it with the question open:\n%s", res.StatusCode, between(body, `id="review"`, "</details>"))
	}
	if rv, _ := app.store.Review(context.Background(), id); rv.State != store.StateDraft {
		t.Fatalf("an unconfirmed submit moved the report to %s", rv.State)
	}
	res, _ = do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("submit: %d", res.StatusCode)
	}
	// Approving with a failing item: 422 naming it, on the report page
	// itself (in its review bar), not a dead-end error page.
	res, body = do(t, rev, "POST", base+"/approve", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "Recommendation with owner and review date") || !strings.Contains(body, "owner missing") {
		t.Fatalf("approve with a failing item: %d\n%s", res.StatusCode, between(body, `data-testid="error"`, "</p>"))
	}
	if bar := between(body, `id="review"`, `class="review-actions`); !strings.Contains(bar, `data-testid="error"`) || !strings.Contains(body, `data-testid="step-bar"`) {
		t.Fatalf("the refusal should show in the report's review bar:\n%s", bar)
	}
	// The page shows the approve button disabled.
	_, body = do(t, rev, "GET", base+"/print", nil)
	if !strings.Contains(body, `data-testid="approve" disabled`) {
		t.Fatal("approve button not disabled")
	}
	// Sending back needs a comment; the refusal is shown in the review bar.
	res, body = do(t, rev, "POST", base+"/send-back", url.Values{"version": {app.version(id)}, "comment": {"  "}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(between(body, `id="review"`, `</details>`), "Comment: required") {
		t.Fatalf("send back without comment: %d", res.StatusCode)
	}
	// A send-back refused as stale keeps the typed comment in the open form.
	res, body = do(t, rev, "POST", base+"/send-back", url.Values{"version": {"1"}, "comment": {"Typed with care."}})
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, `<details class="send-back" open>`) ||
		!strings.Contains(between(body, `data-testid="send-back-comment"`, "</textarea>"), "Typed with care.") {
		t.Fatalf("stale send back: %d\n%s", res.StatusCode, between(body, `id="review"`, "</details>"))
	}
	res, _ = do(t, rev, "POST", base+"/send-back", url.Values{"version": {app.version(id)}, "comment": {"Name the recommendation's owner."}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("send back: %d", res.StatusCode)
	}
	// Sent back is visible: in the review bar, who and why, and in the list.
	_, body = do(t, lead, "GET", base+"/print", nil)
	bar := between(body, `id="review"`, `class="review-actions`)
	if !strings.Contains(bar, `data-testid="review-state">sent back<`) || !strings.Contains(bar, `data-testid="sent-back-by">`+app.users["reviewer"].Display()) ||
		!strings.Contains(bar, "Name the recommendation&#39;s owner.") {
		t.Fatalf("sent-back report should say so with the comment:\n%s", bar)
	}
	_, body = do(t, lead, "GET", app.srv.URL+"/reports", nil)
	if !strings.Contains(between(body, fmt.Sprintf(`data-testid="review-state-%d"`, id), "</td>"), "sent back") {
		t.Fatalf("the list should show the report as sent back:\n%s", between(body, `data-testid="report-list"`, "</table>"))
	}
	// The lead fixes it and submits again; the reviewer approves.
	fixRecommendation(t, app, id)
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}})
	_, body = do(t, lead, "GET", app.srv.URL+"/reports", nil)
	if !strings.Contains(between(body, fmt.Sprintf(`data-testid="review-state-%d"`, id), "</td>"), ">in review<") {
		t.Fatalf("submitted again, the list should show it in review:\n%s", between(body, `data-testid="report-list"`, "</table>"))
	}
	// Approving from a stale page is refused as a conflict.
	res, _ = do(t, rev, "POST", base+"/approve", url.Values{"version": {"1"}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("stale approve: %d", res.StatusCode)
	}
	// Approving needs the confirmation (it makes the report read-only).
	_, body = do(t, rev, "GET", base+"/print", nil)
	if !strings.Contains(between(body, `data-testid="approve-form"`, "</form>"), `name="confirm" value="yes" required`) {
		t.Fatal("the approve form should ask for a confirmation")
	}
	res, body = do(t, rev, "POST", base+"/approve", url.Values{"version": {app.version(id)}}, "HX-Request", "true")
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.HasPrefix(strings.TrimSpace(body), `<div id="review"`) || !strings.Contains(body, "I have read the exit check") {
		t.Fatalf("approve without confirmation (htmx): %d\n%s", res.StatusCode, body)
	}
	res, body = do(t, rev, "POST", base+"/approve", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d %s", res.StatusCode, between(body, `data-testid="error"`, "</p>"))
	}
	_, body = do(t, lead, "GET", app.srv.URL+"/reports", nil)
	if !strings.Contains(between(body, fmt.Sprintf(`data-testid="review-state-%d"`, id), "</td>"), ">approved<") {
		t.Fatal("the list should show the report approved")
	}

	// Approved: read-only for everyone, with the reason.
	res, body = do(t, lead, "POST", base+"/title", url.Values{"version": {app.version(id)}, "title": {"Changed"}})
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, "read-only") {
		t.Fatalf("edit of an approved report: %d", res.StatusCode)
	}
	r, _ := app.store.Report(context.Background(), id)
	err := app.store.RenameReport(context.Background(), store.Edit{ReportID: id, BaseVersion: r.Version, UserID: app.users["admin"].ID, Action: "renamed"}, "x")
	var ro *store.ReadOnlyError
	if !errors.As(err, &ro) {
		t.Fatalf("store update of an approved report: %v", err)
	}
	_, body = do(t, lead, "GET", base+"/print", nil)
	if strings.Contains(body, `data-testid="submit-review"`) || !strings.Contains(body, `data-testid="revise"`) {
		t.Fatal("approved page: no submit, a revise button")
	}
	res, _ = do(t, rev, "POST", base+"/comments", url.Values{"section": {"costs"}, "comment": {"late"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("comment on an approved report: %d", res.StatusCode)
	}

	// A revision: a linked draft copy holding the same figures.
	res, _ = do(t, rev, "POST", base+"/revise", url.Values{})
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("reviewer revise: %d", res.StatusCode)
	}
	res, _ = do(t, lead, "POST", base+"/revise", url.Values{})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("revise: %d", res.StatusCode)
	}
	var next int64
	fmt.Sscanf(res.Header.Get("Location"), "/reports/%d", &next)
	rv, err := app.store.Review(context.Background(), next)
	if err != nil || rv.PredecessorID != id || rv.State != store.StateDraft {
		t.Fatalf("revision %d: %+v %v", next, rv, err)
	}
	svc := reports.New(app.store, "", time.Now)
	rep1, _ := svc.Load(context.Background(), id)
	rep2, _ := svc.Load(context.Background(), next)
	r2, res1, res2 := rep2.Report, rep1.Result, rep2.Result
	if !res2.ExitPass || len(res2.Matrix) != len(res1.Matrix) || *res2.Envelope.Ceiling != 8 || len(res2.Quotes) != 1 {
		t.Fatalf("the revision lost data: exit %v, %d rows, %d quotes", res2.ExitPass, len(res2.Matrix), len(res2.Quotes))
	}
	if !r2.Frozen() {
		t.Fatal("the revision's contract should stay frozen")
	}
	_, body = do(t, lead, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, next), nil)
	if !strings.Contains(body, `data-testid="predecessor"`) || !strings.Contains(body, "created as a revision") {
		t.Fatal("the revision should link its predecessor and say so in its history")
	}
	_, body = do(t, lead, "GET", base+"/print", nil)
	if !strings.Contains(body, `data-testid="successor"`) || !strings.Contains(body, "revision started") {
		t.Fatal("the predecessor should link its revision")
	}
	for _, action := range []string{"submitted for review", "sent back", "approved"} {
		if !strings.Contains(body, action) {
			t.Errorf("history lacks %q", action)
		}
	}
}

// An error under a report offers the way back to it as well as to the list.
func TestErrorPageLeadsBackToTheReport(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "Way back")
	res, body := do(t, app.client("finance"), "POST", fmt.Sprintf("%s/reports/%d/comments", app.srv.URL, id), url.Values{"section": {"nowhere"}, "comment": {"x"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, fmt.Sprintf(`href="/reports/%d/review#review" data-testid="back-to-report"`, id)) ||
		!strings.Contains(body, `href="/reports"`) {
		t.Fatalf("error under a report: %d\n%s", res.StatusCode, between(body, `class="error-page"`, "</article>"))
	}
	res, body = do(t, app.client("finance"), "GET", app.srv.URL+"/reports/999999/history", nil)
	if res.StatusCode != http.StatusNotFound || strings.Contains(body, "back-to-report") {
		t.Fatalf("a missing report offers no way back to it: %d", res.StatusCode)
	}
}

func TestComments(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "Comments")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	fin := app.client("finance")
	res, _ := do(t, fin, "POST", base+"/comments", url.Values{"section": {"costs"}, "comment": {""}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("empty comment: %d", res.StatusCode)
	}
	res, body := do(t, fin, "POST", base+"/comments", url.Values{"section": {"costs"}, "comment": {"Power price is last year's."}}, "HX-Request", "true")
	if res.StatusCode != 200 || !strings.Contains(body, "Power price is last year&#39;s.") || !strings.Contains(body, `hx-swap-oob="true"`) {
		t.Fatalf("htmx comment: %d\n%s", res.StatusCode, body)
	}
	_, body = do(t, app.client("reviewer"), "GET", base+"/print", nil)
	if !strings.Contains(body, "Power price is last year&#39;s.") || !strings.Contains(body, "commented") {
		t.Fatal("comment not visible to the reviewer or not in the history")
	}
	if v := app.version(id); v != "1" {
		t.Fatalf("a comment changed the version to %s", v)
	}
}

func TestExportXLSX(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	res, body := do(t, app.client("finance"), "GET", fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, id), nil)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != xlsxType {
		t.Fatalf("export: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	// Named after the report's title and version, safe as a file name.
	rep, err := app.store.Report(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`attachment; filename="%s-v%d.xlsx"`, reports.SafeFileStem(rep.Title, ""), rep.Version)
	if cd := res.Header.Get("Content-Disposition"); cd != want || strings.ContainsAny(strings.TrimPrefix(cd, "attachment; "), " :/\\") {
		t.Fatalf("Content-Disposition %q, want %q", cd, want)
	}
	f, err := excelize.OpenReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != len(xlsx.SheetNames) {
		t.Fatalf("sheets %v", got)
	}
	// The expected scenario: EUR 25 and EUR 30 per 1,000.
	for col, want := range map[string]string{"I3": "25", "K3": "30"} {
		v, _ := f.GetCellValue("Scenarios", col, excelize.Options{RawCellValue: true})
		if v != want {
			t.Errorf("Scenarios!%s = %q, want %s", col, v, want)
		}
	}
	// The command line's export writes the same workbook.
	var buf bytes.Buffer
	if err := reports.New(app.store, "", time.Now).Export(context.Background(), id, &buf); err != nil || buf.Len() == 0 {
		t.Fatalf("ExportXLSX: %v", err)
	}
}

func TestExportFailureIsAnErrorPage(t *testing.T) {
	app := newTestApp(t)
	id, _ := app.store.CreateReport(context.Background(), app.users["lead"], "Broken export")
	old := reports.WriteXLSX
	reports.WriteXLSX = func(w io.Writer, r xlsx.Report) error {
		w.Write([]byte("PK half a file"))
		return errors.New("disk full")
	}
	t.Cleanup(func() { reports.WriteXLSX = old })
	res, body := do(t, app.client("lead"), "GET", fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, id), nil)
	if res.StatusCode != http.StatusInternalServerError || strings.Contains(body, "PK half") || !strings.Contains(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("failed export: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), body[:min(len(body), 80)])
	}
	if res.Header.Get("Content-Disposition") != "" {
		t.Fatal("a failed export must not offer a download")
	}
}

// between returns the text of s from the first from up to the next to.
func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], to)
	if j < 0 {
		return s[i:]
	}
	return s[i : i+j]
}

func TestAPIReportHasReviewAndExitCheck(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	tok, err := app.store.CreateAPIToken(context.Background(), app.users["reviewer"].ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	res, body := do(t, http.DefaultClient, "GET", fmt.Sprintf("%s/api/v1/reports/%d", app.srv.URL, id), nil, "Authorization", "Bearer "+tok)
	var got struct {
		Result struct {
			ExitCheck []planner.ExitItem `json:"exit_check"`
		} `json:"result"`
		Review struct {
			State    string             `json:"state"`
			ExitPass bool               `json:"exit_pass"`
			Failing  []planner.ExitItem `json:"failing"`
		} `json:"review"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil || res.StatusCode != 200 {
		t.Fatalf("%d %v", res.StatusCode, err)
	}
	if got.Review.State != "draft" || got.Review.ExitPass || len(got.Review.Failing) != 1 || got.Review.Failing[0].ID != "recommendation" || len(got.Result.ExitCheck) < 10 {
		t.Fatalf("review %+v, %d exit items", got.Review, len(got.Result.ExitCheck))
	}
}

// A lead withdraws their report from review: the page offers it only to
// the report's editors while it is in review, the report is a draft again
// with its edit forms back and the step in its history; anyone else, a
// draft, an approved report and a stale page are refused in words, and
// the refusals change nothing.
func TestReviewWithdraw(t *testing.T) {
	app := newTestApp(t)
	id := seedReviewReport(t, app)
	ctx := context.Background()
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	lead, lead2, rev := app.client("lead"), app.client("lead2"), app.client("reviewer")
	// The file import and the scenarios are two of the edit forms a draft
	// shows its lead and a report in review does not.
	editForms := func(body string) int {
		return strings.Count(body, fmt.Sprintf(`action="/reports/%d/imports"`, id)) + strings.Count(body, fmt.Sprintf(`action="/reports/%d/scenarios"`, id))
	}
	withdrawForm := fmt.Sprintf(`action="/reports/%d/withdraw"`, id)
	type seen struct {
		state   store.State
		version string
		changes int
	}
	look := func() seen {
		t.Helper()
		rv, err := app.store.Review(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		h, err := app.store.History(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return seen{rv.State, app.version(id), len(h)}
	}
	// refused posts a withdrawal as c that must be refused with status
	// and words, leaving the report as it was.
	refused := func(what string, c *http.Client, version string, status int, words string) string {
		t.Helper()
		before := look()
		res, body := do(t, c, "POST", base+"/withdraw", url.Values{"version": {version}, "reason": {"Typed with care."}})
		if res.StatusCode != status || !strings.Contains(testid(body, "error"), words) {
			t.Errorf("%s: %d %q, want %d saying %q", what, res.StatusCode, testid(body, "error"), status, words)
		}
		if after := look(); after != before {
			t.Errorf("%s changed the report: %+v, was %+v", what, after, before)
		}
		return body
	}

	// A draft: nothing to withdraw, said in the review bar.
	_, body := do(t, lead, "GET", base+"/print", nil)
	if strings.Contains(body, withdrawForm) || editForms(body) != 2 {
		t.Fatal("a draft should show its edit forms and no withdraw form")
	}
	body = refused("a draft", lead, app.version(id), http.StatusConflict, "The report is not in review: it is a draft")
	if !strings.Contains(between(body, `id="review"`, `class="review-actions`), `data-testid="error"`) {
		t.Errorf("the refusal should be in the review bar:\n%s", between(body, `id="review"`, `class="review-actions`))
	}

	// In review: the lead is offered the withdrawal, saying what it does;
	// the reviewer and a lead who is not an editor are not.
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	_, body = do(t, lead, "GET", base+"/print", nil)
	form := between(body, `data-testid="withdraw"`, "</details>")
	if editForms(body) != 0 || !strings.Contains(form, withdrawForm) || !strings.Contains(form, `name="reason"`) ||
		testid(form, "withdraw-what") != "Returns the report to draft so you can edit it; submit it again when ready." ||
		!strings.Contains(form, `aria-describedby="withdraw-what"`) {
		t.Fatalf("in review, the lead should see the withdraw form and no edit form:\n%s", form)
	}
	if got := testid(body, "review-state-text"); !strings.Contains(got, "or its editors withdraw it from review") {
		t.Errorf("in review the review bar says %q, not that its editors may withdraw it", got)
	}
	for who, c := range map[string]*http.Client{"reviewer": rev, "lead2": lead2} {
		if _, body := do(t, c, "GET", base+"/print", nil); strings.Contains(body, withdrawForm) {
			t.Errorf("%s is offered the withdrawal", who)
		}
	}
	refused("the reviewer", rev, app.version(id), http.StatusForbidden, "Only a lead or an admin may do this; you are signed in as a reviewer.")
	refused("a lead who is not an editor", lead2, app.version(id), http.StatusForbidden,
		"Only the report&#39;s owner, the leads it names as editors, or an admin may withdraw it from review.")
	// A stale page: refused in the review bar, the form open with the
	// reason as typed.
	body = refused("a stale page", lead, "1", http.StatusConflict, "Reload the page")
	if f := between(body, `data-testid="withdraw"`, "</details>"); !strings.Contains(body, `<details class="send-back" open data-testid="withdraw">`) ||
		!strings.Contains(between(f, `data-testid="withdraw-reason"`, "</textarea>"), "Typed with care.") {
		t.Errorf("a stale withdrawal should show its form open with the reason:\n%s", f)
	}

	// The lead withdraws it (htmx), saying why: a draft with its edit
	// forms back, the step in its history.
	res, _ := do(t, lead, "POST", base+"/withdraw", url.Values{"version": {app.version(id)}, "reason": {"The fleet is one box short."}}, "HX-Request", "true")
	if res.StatusCode != http.StatusNoContent || res.Header.Get("HX-Redirect") != fmt.Sprintf("/reports/%d/review", id) {
		t.Fatalf("withdraw (htmx): %d, HX-Redirect %q", res.StatusCode, res.Header.Get("HX-Redirect"))
	}
	_, body = do(t, lead, "GET", base+"/print", nil)
	if testid(body, "review-state") != "draft" || editForms(body) != 2 || strings.Contains(body, withdrawForm) {
		t.Fatalf("withdrawn: state %q, %d of the 2 edit forms", testid(body, "review-state"), editForms(body))
	}
	if !strings.Contains(testid(body, "flash"), "Withdrawn from review") {
		t.Errorf("the flash says %q", testid(body, "flash"))
	}
	h, _ := app.store.History(ctx, id)
	if h[0].Action != "withdrawn from review" || h[0].Before != "in review" || h[0].After != "draft: The fleet is one box short." || h[0].User != app.users["lead"].Display() {
		t.Errorf("history entry %+v", h[0])
	}
	if hist := between(body, `id="history"`, "</section>"); !strings.Contains(hist, "withdrawn from review") || !strings.Contains(hist, "The fleet is one box short.") {
		t.Errorf("the page's history lacks the withdrawal:\n%s", hist)
	}

	// Sent back, submitted again and withdrawn (without htmx, without a
	// reason): a draft, not the reviewer's send-back, on the page and in
	// the list.
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}, "confirm": {"yes"}})
	do(t, rev, "POST", base+"/send-back", url.Values{"version": {app.version(id)}, "comment": {"Name the recommendation's owner."}})
	fixRecommendation(t, app, id)
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}})
	res, _ = do(t, lead, "POST", base+"/withdraw", url.Values{"version": {app.version(id)}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != fmt.Sprintf("/reports/%d/review#review", id) {
		t.Fatalf("withdraw: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	_, body = do(t, lead, "GET", base+"/print", nil)
	if testid(body, "review-state") != "draft" || strings.Contains(body, `data-testid="sent-back-comment"`) ||
		!strings.HasPrefix(testid(body, "review-state-text"), "Draft: its editors may change it") {
		t.Errorf("withdrawn after a send-back, the review bar says %q: %q", testid(body, "review-state"), testid(body, "review-state-text"))
	}
	_, body = do(t, lead, "GET", app.srv.URL+"/reports", nil)
	if got := between(body, fmt.Sprintf(`data-testid="review-state-%d"`, id), "</td>"); !strings.Contains(got, ">draft<") {
		t.Errorf("the list should show the withdrawn report as a draft:\n%s", got)
	}

	// Approved: refused, naming who approved it.
	do(t, lead, "POST", base+"/submit", url.Values{"version": {app.version(id)}})
	if res, _ := do(t, rev, "POST", base+"/approve", url.Values{"version": {app.version(id)}, "confirm": {"yes"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d", res.StatusCode)
	}
	refused("an approved report", lead, app.version(id), http.StatusConflict, "approved by "+app.users["reviewer"].Display())
}
