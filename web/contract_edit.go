package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
)

func (s *Server) contractEdit(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	v := view.ContractEditView{R: r, C: r.Contract}
	return s.render(c, http.StatusOK, layout(s.page(c, r.Title+" · contract"), view.ContractEditPage(v)), view.ContractEditForm(v))
}

func (s *Server) contractSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	next, errs := contractForm(form)
	reason := strings.TrimSpace(form.Get("reason"))
	// After the freeze a change to the objective, workload or rows is an
	// amendment, with its rules (planner.Amend).
	var amend []planner.Amendment
	// Its refusals are shown with the form's own, all at once (a missing
	// reason is not held back until the other fields are fixed); a field
	// the form already refused keeps that message, and "the contract must
	// stay complete" is left out while fields are refused on their own.
	if r.Frozen() {
		results, err := s.store.HasResults(c.Request().Context(), r.ID)
		if err != nil {
			return err
		}
		parsed := len(errs) == 0
		var refused error
		amend, refused = planner.Amend(r.Contract, next, results, reason)
		for field, msg := range fieldErrorsOf(refused) {
			if _, seen := errs[field]; !seen && (parsed || field != "contract") {
				errs[field] = msg
			}
		}
	}
	action := "contract edited"
	if len(amend) > 0 {
		action = "contract amended: " + reason
	}
	onPage := form.Get("on_page") != ""
	editView := func(v view.Report, f view.SectionForm) view.ContractEditView {
		return view.ContractEditView{R: v.R, C: next, SectionForm: f, Reason: reason, OnPage: onPage}
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "contract", Form: form, Errs: errs, Prev: r.Contract, Next: next,
		Edit: s.edit(c, r, action, "contract"),
		Save: func(ctx context.Context, e store.Edit) error { return s.store.SaveContract(ctx, e, next, amend) },
		// The contract is edited on a page of its own.
		Again: func(v view.Report, f view.SectionForm) templ.Component { return view.ContractEditForm(editView(v, f)) },
		Page:  func(v view.Report, f view.SectionForm) templ.Component { return view.ContractEditPage(editView(v, f)) },
		// Saved in place on the report: the contract, and everything judged
		// against it out of band. Saved from the form's own page: a
		// redirect to the report (post, redirect, get).
		Swap: func(v view.Report) (templ.Component, bool) {
			return view.ContractSectionWithHistory(v), !onPage
		},
		ReplaceURL: view.StepURL(r.ID, "contract"),
	})
}

func (s *Server) contractFreeze(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	if !fr.check("confirm") {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Confirm the freeze: tick that you have read the contract (after the freeze, changes are amendments).")
	}
	if m := r.Contract.MissingLabels(); len(m) > 0 {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "The contract cannot be frozen yet; fill in: "+strings.Join(m, ", ")+".")
	}
	e := s.edit(c, r, "contract frozen", "contract")
	if err := s.store.Freeze(c.Request().Context(), e); err != nil {
		return err
	}
	return redirectFlash(c, view.SectionURL(r.ID, "contract"), "Contract frozen.")
}
