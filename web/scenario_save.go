package web

import (
	"context"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

// scenariosSave saves the demand scenarios: the report's editors and
// finance, whose input demand is.
func (s *Server) scenariosSave(c echo.Context) error {
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
	next, errs := readScenarioForm(form)
	return s.finishSection(c, r, sectionSave{
		anchor: "scenarios", render: scenariosSectionAlone, swap: scenariosSwap,
		errs: errs, form: form, before: in.Scenarios, after: next,
		edit: s.edit(c, r, "demand scenarios changed", "scenarios"),
		save: func(ctx context.Context, e store.Edit) error { return s.store.SaveSection(ctx, e, secScenarios, next) },
	})
}

func scenariosSectionAlone(v reportView, fs moneyForm) templ.Component {
	return scenariosSection(v, fs, false)
}

// scenariosSwap is what saved scenarios swap: the scenarios, the crossover
// (it is sized at the expected scenario's busy hour) and the history.
func scenariosSwap(v reportView) templ.Component {
	return templ.Join(scenariosSection(v, moneyForm{}, false), crossoverSection(v, true), historySection(v.R.ID, v.History, true))
}
