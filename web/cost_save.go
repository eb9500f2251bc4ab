package web

import (
	"context"
	"fmt"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

// costReport reads the :id report and refuses users who may not edit its
// costs: the report's editors and finance may.
func (s *Server) costReport(c echo.Context) (store.Report, error) {
	id, err := idParam(c, "id")
	if err != nil {
		return store.Report{}, err
	}
	r, err := s.store.Report(c.Request().Context(), id)
	if err != nil {
		return store.Report{}, err
	}
	if !canEditCosts(r, currentUser(c)) {
		return store.Report{}, errForbidden
	}
	if err := s.readOnly(c.Request().Context(), r.ID); err != nil {
		return store.Report{}, err
	}
	return r, nil
}

// costsSwap is what a saved cost change swaps: the costs, and the sections
// computed from them, and the history.
func costsSwap(v reportView) templ.Component {
	return templ.Join(costsSection(v, moneyForm{}, false), scenariosSection(v, moneyForm{}, true),
		crossoverSection(v, true), historySection(v.R.ID, v.History, true))
}

// costSettingsSave saves the report's money settings: currency, token
// basis, boxes in the plan and the stale age.
func (s *Server) costSettingsSave(c echo.Context) error {
	r, err := s.costReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	next, errs := settingsForm(form)
	var prev reportSettings
	if _, err := s.store.Section(c.Request().Context(), r.ID, secSettings, &prev); err != nil {
		return err
	}
	return s.finishSection(c, r, sectionSave{
		anchor: "costs", render: costsSectionAlone, swap: costsSwap,
		errs: errs, form: form, before: prev, after: next,
		edit: s.edit(c, r, "cost settings changed", "costs"),
		save: func(ctx context.Context, e store.Edit) error { return s.store.SaveSection(ctx, e, secSettings, next) },
	})
}

// costSelfHostedSave saves the self-hosted cost inputs.
func (s *Server) costSelfHostedSave(c echo.Context) error {
	r, err := s.costReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	in, err := s.inputs(ctx, r)
	if err != nil {
		return err
	}
	next, errs := readSelfHostedForm(form, in.Currency)
	return s.finishSection(c, r, sectionSave{
		anchor: "costs", render: costsSectionAlone, swap: costsSwap,
		errs: errs, form: form, before: in.SelfHosted, after: next,
		edit: s.edit(c, r, "self-hosted costs changed", "costs"),
		save: func(ctx context.Context, e store.Edit) error { return s.store.SaveSection(ctx, e, secSelfHosted, next) },
	})
}

// quoteAttach attaches a library quote to the report.
func (s *Server) quoteAttach(c echo.Context) error {
	r, err := s.costReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	qid, _ := strconv.ParseInt(form.Get("quote_id"), 10, 64)
	errs := formErrors{}
	var name string
	if q, err := s.store.QuoteByID(ctx, qid); err != nil {
		errs["quote_id"] = "choose a quote from the library"
	} else {
		name = q.Q.Name
	}
	e := s.edit(c, r, "quote attached: "+name, "costs")
	e.After = name
	return s.finishSection(c, r, sectionSave{
		anchor: "costs", render: costsSectionAlone, swap: costsSwap, errs: errs, form: form, edit: e,
		save: func(ctx context.Context, e store.Edit) error { return s.store.AttachQuote(ctx, e, qid) },
	})
}

// quoteDetach removes a quote from the report's comparison.
func (s *Server) quoteDetach(c echo.Context) error {
	r, err := s.costReport(c)
	if err != nil {
		return err
	}
	qid, err := idParam(c, "qid")
	if err != nil {
		return err
	}
	q, err := s.store.QuoteByID(c.Request().Context(), qid)
	if err != nil {
		return err
	}
	form, _ := c.FormParams()
	e := s.edit(c, r, "quote detached: "+q.Q.Name, "costs")
	e.Before = q.Q.Name
	return s.finishSection(c, r, sectionSave{
		anchor: "costs", render: costsSectionAlone, swap: costsSwap, form: form, edit: e,
		save: func(ctx context.Context, e store.Edit) error {
			err := s.store.DetachQuote(ctx, e, qid)
			if err == store.ErrNotFound {
				return echo.NewHTTPError(404, fmt.Sprintf("Quote %q is not attached to this report.", q.Q.Name))
			}
			return err
		},
	})
}

// costsSectionAlone is the costs section with its forms as typed.
func costsSectionAlone(v reportView, fs moneyForm) templ.Component {
	return costsSection(v, fs, false)
}
