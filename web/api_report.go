package web

import (
	"bytes"
	"context"
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
// The answer is the same for every token, and kept while nothing is
// committed to the database (see pageCache).
func (s *Server) apiReportShow(c echo.Context) error {
	id, err := idParam(c, "id")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows := c.QueryParam("include") == "rows"
	render := func(ctx context.Context) ([]byte, error) { return s.apiReportJSON(ctx, id, rows) }
	var b *body
	if now, ok := s.readChanges(c); ok {
		// Never a superseded answer: a client that has just posted results
		// reads the verdict they make.
		b, err = s.pages.get(ctx, now, pageKey{view: "api", report: id, asOf: s.svc.AsOf(), allRows: rows}, nil, acceptsGzip(c.Request()), render)
	} else {
		var raw []byte
		if raw, err = render(ctx); err == nil {
			b = &body{raw: raw}
		}
	}
	if err != nil {
		return err
	}
	return b.send(c, http.StatusOK, echo.MIMEApplicationJSON)
}

// apiReportJSON is report id as JSON (apiReport), whole with rows.
func (s *Server) apiReportJSON(ctx context.Context, id int64, rows bool) ([]byte, error) {
	rep, err := s.svc.Load(ctx, id)
	if err != nil {
		return nil, err
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
	// Inputs and result are encoded once per computed version of the report
	// and shared (reports.Report.Derived); header and review, which change
	// without a new version, for each answer.
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
		return nil, err
	}
	resJSON, err := rep.Derived(name+" result", func(w io.Writer) error { _, res := shown(); return encodeJSON(w, res) })
	if err != nil {
		return nil, err
	}
	// Written as encoding/json would write apiReport, without compacting
	// the encoded parts again.
	var b bytes.Buffer
	b.Grow(len(inJSON) + len(resJSON) + 1024)
	b.WriteString(`{"report":`)
	if err := encodeJSON(&b, h); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, `,"rows_included":%t,"inputs":`, rows)
	b.Write(inJSON)
	b.WriteString(`,"result":`)
	b.Write(resJSON)
	b.WriteString(`,"review":`)
	if err := encodeJSON(&b, review); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
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
