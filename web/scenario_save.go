package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/web/reports"
	"capplan/web/view"
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
	return s.saveSection(c, r, sectionSave{
		Anchor: "scenarios", Form: form, Errs: errs, Prev: in.Scenarios, Next: next,
		Edit: s.edit(c, r, "demand scenarios changed", "scenarios"),
		Doc:  reports.SecScenarios,
	})
}

func scenariosAgain(v view.Report, f view.SectionForm) templ.Component {
	return view.ScenariosSection(v, f.Money(), false)
}

// scenariosSwap is what saved scenarios swap: the scenarios (the pipeline
// adds the crossover, sized at the expected scenario's busy hour, and the
// rest computed from them).
func scenariosSwap(v view.Report) templ.Component {
	return view.ScenariosSection(v, view.MoneyForm{}, false)
}
