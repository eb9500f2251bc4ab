package web

import (
	"context"
	"fmt"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
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
		return store.Report{}, errNotCostEditor
	}
	if err := s.svc.ReadOnly(c.Request().Context(), r.ID); err != nil {
		return store.Report{}, err
	}
	return r, nil
}

// canEditCosts: the report's editors and finance change costs, quotes and
// demand scenarios.
func canEditCosts(r store.Report, u *store.User) bool {
	return u != nil && (r.CanEdit(*u) || u.Role == store.RoleFinance)
}

// costsSwap is what a saved cost change swaps: the costs (the pipeline
// adds the sections computed from them).
func costsSwap(v view.Report) templ.Component {
	return view.CostsSection(v, view.MoneyForm{}, false)
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
	mergeFieldErrors(errs, planner.FutureEvidence(s.svc.AsOf(), planner.RatesEvidence(next.ExchangeRates)))
	var prev reports.Settings
	if _, err := s.store.Section(c.Request().Context(), r.ID, reports.SecSettings, &prev); err != nil {
		return err
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "costs", Form: form, Errs: errs, Prev: prev, Next: next,
		Edit: s.edit(c, r, "cost settings changed", "costs"),
		Doc:  reports.SecSettings,
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
	// A unit naming another currency needs a dated rate for it.
	mergeFieldErrors(errs, next.CheckCurrencies(in.Currency, in.ExchangeRates), "")
	mergeFieldErrors(errs, planner.FutureEvidence(s.svc.AsOf(), planner.SelfHostedEvidence(next)))
	return s.saveSection(c, r, sectionSave{
		Anchor: "costs", Form: form, Errs: errs, Prev: in.SelfHosted, Next: next,
		Edit: s.edit(c, r, "self-hosted costs changed", "costs"),
		Doc:  reports.SecSelfHosted,
	})
}

// quoteAttach attaches a library quote to the report.
func (s *Server) quoteAttach(c echo.Context) error {
	r, err := s.costReport(c)
	if err != nil {
		return err
	}
	fr, err := readForm(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var qid int64
	if n := fr.integer("quote_id"); n != nil {
		qid = int64(*n)
	}
	var name string
	if q, err := s.store.QuoteByID(ctx, qid); err != nil {
		fr.refuse("quote_id", "choose a quote from the library")
	} else {
		name = q.Q.Name
	}
	e := s.edit(c, r, "quote attached: "+name, "quotes")
	e.After = name
	return s.saveSection(c, r, sectionSave{
		Anchor: "costs", Form: fr.f, Errs: fr.errs, Edit: e, Changed: true,
		Save: func(ctx context.Context, e store.Edit) error { return s.store.AttachQuote(ctx, e, qid) },
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
	e := s.edit(c, r, "quote detached: "+q.Q.Name, "quotes")
	e.Before = q.Q.Name
	return s.saveSection(c, r, sectionSave{
		Anchor: "costs", Form: form, Edit: e, Changed: true,
		Save: func(ctx context.Context, e store.Edit) error {
			err := s.store.DetachQuote(ctx, e, qid)
			if err == store.ErrNotFound {
				return echo.NewHTTPError(404, fmt.Sprintf("Quote %q is not attached to this report.", q.Q.Name))
			}
			return err
		},
	})
}

// costsAgain is the costs section with its forms as typed.
func costsAgain(v view.Report, f view.SectionForm) templ.Component {
	return view.CostsSection(v, f.Money(), false)
}
