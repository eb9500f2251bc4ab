package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/planner"
)

// apiReport is the computed report as JSON: its header, the inputs it was
// computed from and the planner's Result, the same numbers the page shows.
type apiReport struct {
	Report apiReportHeader `json:"report"`
	Inputs planner.Inputs  `json:"inputs"`
	Result planner.Result  `json:"result"`
	// Review is the workflow state; the exit check itself is
	// result.exit_check, its failing items repeated here.
	Review apiReview `json:"review"`
}

type apiReview struct {
	State         string             `json:"state"` // draft, in_review or approved
	ApprovedAt    *time.Time         `json:"approved_at"`
	ApprovedBy    string             `json:"approved_by,omitempty"`
	PredecessorID *int64             `json:"predecessor_id"`
	SuccessorIDs  []int64            `json:"successor_ids"`
	ExitPass      bool               `json:"exit_pass"`
	Failing       []planner.ExitItem `json:"failing"`
}

type apiReportHeader struct {
	ID       int64      `json:"id"`
	Title    string     `json:"title"`
	Version  int        `json:"version"`
	FrozenAt *time.Time `json:"frozen_at"`
	Owner    string     `json:"owner"`
}

// apiReportShow serves GET /api/v1/reports/:id to any role's API token.
func (s *Server) apiReportShow(c echo.Context) error {
	r, err := s.reportParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	in, res, err := s.compute(ctx, r)
	if err != nil {
		return err
	}
	h := apiReportHeader{ID: r.ID, Title: r.Title, Version: r.Version, Owner: r.Owner}
	if r.Frozen() {
		t := r.FrozenAt.UTC()
		h.FrozenAt = &t
	}
	rv, err := s.store.Review(ctx, r.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiReport{Report: h, Inputs: in, Result: res, Review: reviewJSON(rv, res)})
}
