package web

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
	"capplan/web/xlsx"
)

// compareShow is GET /compare?s=KEY&s=KEY...: a shareable comparison of 2 to
// 4 reports or candidates.
func (s *Server) compareShow(c echo.Context) error {
	v, err := s.comparison(c)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if v.Err != "" {
		status = http.StatusUnprocessableEntity
	}
	return s.render(c, status, layout(s.page(c, "Comparison"), view.ComparePage(v)), view.ComparePage(v))
}

// compareXLSX is the comparison as a workbook sheet.
func (s *Server) compareXLSX(c echo.Context) error {
	v, err := s.comparison(c)
	if err != nil {
		return err
	}
	if v.Result == nil {
		if v.Err == "" {
			v.Err = "pick 2 to 4 reports or candidates to compare"
		}
		return echo.NewHTTPError(http.StatusUnprocessableEntity, v.Err)
	}
	var buf bytes.Buffer
	if err := xlsx.WriteComparison(&buf, *v.Result); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="comparison.xlsx"`)
	return c.Blob(http.StatusOK, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", buf.Bytes())
}

// comparison reads the picks and computes them.
func (s *Server) comparison(c echo.Context) (view.CompareView, error) {
	ctx := c.Request().Context()
	v := view.CompareView{Picks: c.QueryParams()["s"], Ref: c.QueryParam("ref")}
	reports, err := s.store.Reports(ctx)
	if err != nil {
		return v, err
	}
	for _, r := range reports {
		v.Choices = append(v.Choices, view.CompareChoice{Key: view.SubjectKey(r.ID, 0), Label: r.Title})
		cands, err := s.store.Candidates(ctx, r.ID)
		if err != nil {
			return v, err
		}
		for _, cd := range cands {
			if cd.Candidate.Baseline {
				continue
			}
			v.Choices = append(v.Choices, view.CompareChoice{Key: view.SubjectKey(r.ID, cd.ID), Label: r.Title + ": candidate " + cd.Candidate.Name})
		}
	}
	if len(v.Picks) == 0 {
		return v, nil
	}
	// The reference is the user's choice; one chosen but not ticked is
	// compared too.
	ref := slices.Index(v.Picks, v.Ref)
	switch {
	case v.Ref == "":
		v.Ref, ref = v.Picks[0], 0
	case ref < 0:
		v.Picks, ref = append([]string{v.Ref}, v.Picks...), 0
	}
	v.Query = url.Values{"s": v.Picks, "ref": {v.Ref}}.Encode()
	var subjects []planner.CompareSubject
	for _, key := range v.Picks {
		sub, msg, err := s.compareSubject(c, key)
		if err != nil {
			return v, err
		}
		if msg != "" {
			v.Err = msg
			return v, nil
		}
		subjects = append(subjects, sub)
	}
	sbs, err := planner.Compare(subjects, ref)
	if err != nil {
		v.Err = err.Error()
		return v, nil
	}
	v.Result = &sbs
	return v, nil
}

// compareSubject computes one pick: a report as it stands, or a candidate
// of it judged on its own rows under the report's contract.
func (s *Server) compareSubject(c echo.Context, key string) (planner.CompareSubject, string, error) {
	ctx := c.Request().Context()
	rs, cs, isCand := strings.Cut(key, ".c")
	rid, err := strconv.ParseInt(rs, 10, 64)
	if err != nil {
		return planner.CompareSubject{}, fmt.Sprintf("%q names no report or candidate", key), nil
	}
	r, err := s.store.Report(ctx, rid)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return planner.CompareSubject{}, fmt.Sprintf("report %d does not exist", rid), nil
		}
		return planner.CompareSubject{}, "", err
	}
	in, err := s.inputs(ctx, r)
	if err != nil {
		return planner.CompareSubject{}, "", err
	}
	name := r.Title
	if isCand {
		cid, err := strconv.ParseInt(cs, 10, 64)
		if err != nil {
			return planner.CompareSubject{}, fmt.Sprintf("%q names no candidate", key), nil
		}
		cands, err := s.store.Candidates(ctx, r.ID)
		if err != nil {
			return planner.CompareSubject{}, "", err
		}
		var found *store.Candidate
		for i := range cands {
			if cands[i].ID == cid {
				found = &cands[i]
			}
		}
		if found == nil {
			return planner.CompareSubject{}, fmt.Sprintf("report %d has no candidate %d", rid, cid), nil
		}
		rows, err := s.store.Rows(ctx, r.ID)
		if err != nil {
			return planner.CompareSubject{}, "", err
		}
		in.Rows = nil
		for _, sr := range rows {
			if sr.CandidateID == cid {
				in.Rows = append(in.Rows, sr.Row)
			}
		}
		cd := found.Candidate
		if cd.Model != "" {
			in.Contract.BaselineModel = cd.Model
		}
		if cd.Artifact != "" {
			in.Contract.Artifact = cd.Artifact
		}
		name = r.Title + ": " + cd.Name
	}
	return planner.CompareSubject{Name: name, Contract: in.Contract, Result: planner.Compute(in)}, "", nil
}
