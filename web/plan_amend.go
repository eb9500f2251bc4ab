package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
)

// planRowsAmend amends a frozen contract's rows from the form beside the
// rows no file has (view.PlanAmendForm): the loads replace the planned ones,
// with a reason, by the contract's rule (planner.Amend), recorded as the
// contract editor records an amendment.
func (s *Server) planRowsAmend(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	if !r.Frozen() {
		return echo.NewHTTPError(http.StatusConflict, "The contract is not frozen: change its rows in the contract itself.")
	}
	next := r.Contract
	next.Loads = nil
	for _, part := range strings.FieldsFunc(fr.str("loads"), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		v := fr.number("loads", part, "numbers separated by commas, e.g. 1, 2, 4, 8")
		if v == nil {
			break
		}
		next.Loads = append(next.Loads, *v)
	}
	if !fr.failed("loads") {
		for field, msg := range fieldErrorsOf(next.Validate()) {
			if field == "loads" {
				fr.refuse("loads", msg)
			}
		}
	}
	reason := fr.str("reason")
	results, err := s.store.HasResults(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	amend, refused := planner.Amend(r.Contract, next, results, reason)
	for field, msg := range fieldErrorsOf(refused) {
		if field != "contract" {
			fr.refuse(field, msg)
		}
	}
	if len(fr.errs) == 0 && len(amend) == 0 {
		fr.refuse("loads", "these are the planned rows: nothing to amend (change them, or run the missing rows)")
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "matrix", Key: view.PlanAmendKey, Form: fr.f, Errs: fr.errs, Prev: r.Contract, Next: next,
		Edit:  s.edit(c, r, "contract amended: "+reason, "contract"),
		Save:  func(ctx context.Context, e store.Edit) error { return s.store.SaveContract(ctx, e, next, amend) },
		Again: func(v view.Report, f view.SectionForm) templ.Component { return view.PlanAmendForm(v, f) },
		// The whole results step changes with the plan.
		Redirect: true,
		Flash:    fmt.Sprintf("Plan amended: the rows are now %s %s. The amendment and its reason are on the contract.", next.LoadKind, planner.FormatLoads(next.Loads)),
	})
}
