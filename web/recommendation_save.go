package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// recommendationSave saves the recommendation (the report's editors). A
// decision that picks the costlier option in the expected scenario is
// refused without a written justification (planner.CostlierDecision), the
// rule the exit check holds it to.
func (s *Server) recommendationSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	rep, err := s.svc.Load(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	next, errs := readRecommendationForm(form)
	if why := planner.CostlierDecision(next.Decision, &rep.Result); why != "" && next.Justification == "" {
		errs["justification"] = "required: " + why + "; say why, or choose the cheaper option"
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "recommendation", Form: form, Errs: errs, Prev: rep.In.Recommendation, Next: next,
		Edit: s.edit(c, r, "recommendation changed", "recommendation"),
		Doc:  reports.SecRecommendation,
	})
}

func recommendationAgain(v view.Report, f view.SectionForm) templ.Component {
	return view.RecommendationSection(v, f.Money(), false)
}

func recommendationSwap(v view.Report) templ.Component {
	return view.RecommendationSection(v, view.MoneyForm{}, false)
}
