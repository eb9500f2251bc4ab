package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
	"capplan/web/store"
)

// TestApprovedReportKeepsItsSnapshot: the demo report is approved; then
// finance raises the library quote's output price. The approved report's
// cost per 1,000 and version stay as approved (its snapshot date is in the
// API); a draft using the same quote is repriced and its history names the
// change; the quote page lists both reports. While in review the report is
// read-only in the store.
func TestApprovedReportKeepsItsSnapshot(t *testing.T) {
	app := newTestApp(t)
	r := seedDemoInto(t, app)
	ctx := context.Background()
	demoAdmin, _ := app.store.UserByEmail(ctx, "admin")
	qs, err := app.store.ReportQuotes(ctx, r.ID)
	if err != nil || len(qs) == 0 {
		t.Fatalf("demo quotes %v %v", qs, err)
	}
	q := qs[0]

	// A draft using the same quote.
	lead := app.users["lead"]
	draft, err := app.store.CreateReport(ctx, lead, "Draft using the quote")
	if err != nil {
		t.Fatal(err)
	}
	if err := app.store.AttachQuote(ctx, store.Edit{ReportID: draft, BaseVersion: 1, UserID: lead.ID, Action: "quote attached", Section: "costs"}, q.ID); err != nil {
		t.Fatal(err)
	}

	// Submit: the report is locked in review.
	r, _ = app.store.Report(ctx, r.ID)
	if err := app.store.Transition(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "submitted for review", Section: "review"}, store.StateInReview, ""); err != nil {
		t.Fatal(err)
	}
	r, _ = app.store.Report(ctx, r.ID)
	err = app.store.SaveSection(ctx, store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: demoAdmin.ID, Action: "x", Section: "costs"}, "settings", map[string]any{})
	var ir *store.InReviewError
	if !asInReview(err, &ir) {
		t.Fatalf("a change in review: %v", err)
	}

	tok, _ := app.store.CreateAPIToken(ctx, app.users["reviewer"].ID, "read")
	type costs struct {
		Report struct {
			Version int `json:"version"`
		} `json:"report"`
		Result struct {
			Scenarios []struct {
				Options []struct {
					Option      string `json:"option"`
					CostPer1000 *struct {
						Exact string `json:"exact"`
					} `json:"cost_per_1000"`
				} `json:"options"`
			} `json:"scenarios"`
		} `json:"result"`
		Review struct {
			State      string  `json:"state"`
			SnapshotAt *string `json:"snapshot_at"`
		} `json:"review"`
	}
	apiPer1000 := func(id int64) (string, costs) {
		var c costs
		apiGet(t, app, tok, fmt.Sprintf("/api/v1/reports/%d", id), &c)
		var parts []string
		for _, s := range c.Result.Scenarios {
			for _, o := range s.Options {
				if o.CostPer1000 != nil {
					parts = append(parts, o.Option+"="+o.CostPer1000.Exact)
				}
			}
		}
		return strings.Join(parts, ","), c
	}

	// Approve through the page.
	rev := app.client("reviewer")
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, r.ID)
	res, _ := do(t, rev, http.MethodPost, base+"/approve", url.Values{"version": {app.version(r.ID)}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d", res.StatusCode)
	}
	before, c := apiPer1000(r.ID)
	if c.Review.State != "approved" || c.Review.SnapshotAt == nil {
		t.Fatalf("review %+v", c.Review)
	}
	version := c.Report.Version
	_, draftBefore := apiPer1000(draft)

	// Finance raises the output price.
	q.Q.OutputPerMTokens = &planner.Figure{Amount: q.Q.OutputPerMTokens.Amount.Mul(decimal.NewFromInt(2)), Unit: q.Q.OutputPerMTokens.Unit,
		Source: "new price list", EvidenceDate: q.Q.OutputPerMTokens.EvidenceDate}
	if _, err := app.store.SaveQuote(ctx, app.users["finance"].ID, q); err != nil {
		t.Fatal(err)
	}
	after, c := apiPer1000(r.ID)
	if after != before || c.Report.Version != version {
		t.Errorf("the approved report moved: %s (v%d), was %s (v%d)", after, c.Report.Version, before, version)
	}
	_, draftAfter := apiPer1000(draft)
	if draftAfter.Report.Version != draftBefore.Report.Version+1 {
		t.Errorf("draft version %d, was %d", draftAfter.Report.Version, draftBefore.Report.Version)
	}
	hist, _ := app.store.History(ctx, draft)
	if !strings.Contains(hist[0].Action, "library quote "+q.Q.Name+" edited") || !strings.Contains(hist[0].After, "output_per_m_tokens") {
		t.Errorf("draft history %+v", hist[0])
	}
	if h, _ := app.store.History(ctx, r.ID); strings.Contains(h[0].Action, "library quote") {
		t.Errorf("the approved report got a history entry: %+v", h[0])
	}

	// The quote page lists both, and says approved ones keep their figures.
	_, page := do(t, app.client("finance"), http.MethodGet, fmt.Sprintf("%s/quotes/%d", app.srv.URL, q.ID), nil)
	for _, want := range []string{fmt.Sprintf(`data-testid="quote-use-%d"`, r.ID), fmt.Sprintf(`data-testid="quote-use-%d"`, draft), "(approved)", "keep the figures they were approved with"} {
		if !strings.Contains(page, want) {
			t.Errorf("quote page lacks %q", want)
		}
	}
}

func asInReview(err error, target **store.InReviewError) bool { return errors.As(err, target) }
