package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
)

// planKept are the planned loads without the missing ones: the rows that
// were run, as the plan amendment's form fills them in.
func planKept(planned, missing []float64) []float64 {
	var out []float64
	for _, l := range planned {
		if !slices.Contains(missing, l) {
			out = append(out, l)
		}
	}
	return out
}

// planMissingText asks for the missing rows: "Run the missing row (16)
// and import its file".
func planMissingText(missing []float64) string {
	if len(missing) == 1 {
		return "Run the missing row (" + joinLoads(missing) + ") and import its file"
	}
	return "Run the missing rows (" + joinLoads(missing) + ") and import their files"
}

// planRowsAmend amends a frozen contract's rows from the form beside the
// rows no file has (planAmendForm): the loads replace the planned ones,
// with a reason, by the contract's rule (planner.Amend), recorded as the
// contract editor records an amendment.
func (s *Server) planRowsAmend(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	if !r.Frozen() {
		return echo.NewHTTPError(http.StatusConflict, "The contract is not frozen: change its rows in the contract itself.")
	}
	errs := formErrors{}
	next := r.Contract
	next.Loads = nil
	for _, part := range strings.FieldsFunc(form.Get("loads"), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		v, err := strconv.ParseFloat(part, 64)
		if err != nil {
			errs["loads"] = "must be numbers separated by commas, e.g. 1, 2, 4, 8; " + strconv.Quote(part) + " is not a number"
			break
		}
		next.Loads = append(next.Loads, v)
	}
	if _, bad := errs["loads"]; !bad {
		for field, msg := range fieldErrorsOf(next.Validate()) {
			if field == "loads" {
				errs["loads"] = msg
			}
		}
	}
	reason := strings.TrimSpace(form.Get("reason"))
	results, err := s.store.HasResults(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	amend, refused := planner.Amend(r.Contract, next, results, reason)
	for field, msg := range fieldErrorsOf(refused) {
		if _, seen := errs[field]; !seen && field != "contract" {
			errs[field] = msg
		}
	}
	if len(errs) == 0 && len(amend) == 0 {
		errs["loads"] = "these are the planned rows: nothing to amend (change them, or run the missing rows)"
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "matrix", Key: planAmendKey, Form: form, Errs: errs, Prev: r.Contract, Next: next,
		Edit:  s.edit(c, r, "contract amended: "+reason, "contract"),
		Save:  func(ctx context.Context, e store.Edit) error { return s.store.SaveContract(ctx, e, next, amend) },
		Again: func(v reportView, f sectionForm) templ.Component { return planAmendForm(v, f) },
		// The whole results step changes with the plan.
		Redirect: true,
		Flash:    fmt.Sprintf("Plan amended: the rows are now %s %s. The amendment and its reason are on the contract.", next.LoadKind, planner.FormatLoads(next.Loads)),
	})
}
