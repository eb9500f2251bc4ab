package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/planner"
)

// apiReport is the computed report as JSON: its header, the inputs it was
// computed from and the planner's Result, the same numbers the page shows.
// By default it is the headline: the rows' inputs are left out and each
// matrix row comes without the paths its figures were read from; with
// ?include=rows it is whole (RowsIncluded says which).
type apiReport struct {
	Report       apiReportHeader `json:"report"`
	RowsIncluded bool            `json:"rows_included"`
	Inputs       json.RawMessage `json:"inputs"` // planner.Inputs
	Result       json.RawMessage `json:"result"` // planner.Result
	// Review is the workflow state; the exit check itself is
	// result.exit_check, its failing items repeated here.
	Review apiReview `json:"review"`
}

type apiReview struct {
	State         string     `json:"state"` // draft, in_review or approved
	ApprovedAt    *time.Time `json:"approved_at"`
	ApprovedBy    string     `json:"approved_by,omitempty"`
	PredecessorID *int64     `json:"predecessor_id"`
	SuccessorIDs  []int64    `json:"successor_ids"`
	// SnapshotAt is when the inputs of an approved report were kept; the
	// report is computed from them ever after. Nil before approval.
	SnapshotAt *time.Time         `json:"snapshot_at"`
	ExitPass   bool               `json:"exit_pass"`
	Failing    []planner.ExitItem `json:"failing"`
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
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	rep, err := s.svc.Load(c.Request().Context(), id)
	if err != nil {
		return err
	}
	h := apiReportHeader{ID: rep.ID, Title: rep.Title, Version: rep.Version, Owner: rep.Owner}
	if rep.Frozen() {
		t := rep.FrozenAt.UTC()
		h.FrozenAt = &t
	}
	review := reviewJSON(rep.Review, rep.Result)
	if !rep.SnapshotAt.IsZero() {
		t := rep.SnapshotAt.UTC()
		review.SnapshotAt = &t
	}
	// The inputs and result are encoded once per computed version of the
	// report and shared (reports.Report.Derived); header and review, which
	// change without a new version, are encoded for each request.
	// Inputs and result are encoded once per computed version of the report
	// and shared (reports.Report.Derived); header and review, which change
	// without a new version, for each request.
	rows := c.QueryParam("include") == "rows"
	shown := func() (planner.Inputs, planner.Result) {
		if rows {
			return rep.In, rep.Result
		}
		return headline(rep.In, rep.Result)
	}
	name := "api headline"
	if rows {
		name = "api rows"
	}
	inJSON, err := rep.Derived(name+" inputs", func(w io.Writer) error { in, _ := shown(); return encodeJSON(w, in) })
	if err != nil {
		return err
	}
	resJSON, err := rep.Derived(name+" result", func(w io.Writer) error { _, res := shown(); return encodeJSON(w, res) })
	if err != nil {
		return err
	}
	// Written as encoding/json would write apiReport, without compacting
	// the encoded parts again.
	var b bytes.Buffer
	b.Grow(len(inJSON) + len(resJSON) + 1024)
	b.WriteString(`{"report":`)
	if err := encodeJSON(&b, h); err != nil {
		return err
	}
	fmt.Fprintf(&b, `,"rows_included":%t,"inputs":`, rows)
	b.Write(inJSON)
	b.WriteString(`,"result":`)
	b.Write(resJSON)
	b.WriteString(`,"review":`)
	if err := encodeJSON(&b, review); err != nil {
		return err
	}
	b.WriteString("}\n")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b.Bytes())
}

func encodeJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// headline drops the per-row detail from copies of in and res: the rows'
// inputs (the matrix has every row's figures and verdict) and, per matrix
// row, the paths inside the file that each figure was read from. Every
// figure and verdict stays.
func headline(in planner.Inputs, res planner.Result) (planner.Inputs, planner.Result) {
	in.Rows = nil
	in.Candidates = slices.Clone(in.Candidates)
	for i := range in.Candidates {
		in.Candidates[i].Rows = nil
	}
	res.Matrix = slices.Clone(res.Matrix)
	for i := range res.Matrix {
		res.Matrix[i].Row.Paths = nil
	}
	return in, res
}
