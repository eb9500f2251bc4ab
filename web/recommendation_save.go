package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/web/reports"
)

// recommendationSave saves the recommendation (the report's editors).
func (s *Server) recommendationSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	in, err := s.inputs(c.Request().Context(), r)
	if err != nil {
		return err
	}
	next, errs := readRecommendationForm(form)
	return s.saveSection(c, r, sectionSave{
		Anchor: "recommendation", Form: form, Errs: errs, Prev: in.Recommendation, Next: next,
		Edit:  s.edit(c, r, "recommendation changed", "recommendation"),
		Doc:   reports.SecRecommendation,
		Again: recommendationAgain, Swap: swapOf(recommendationSwap),
	})
}

func recommendationAgain(v reportView, f sectionForm) templ.Component {
	return recommendationSection(v, f.money(), false)
}

func recommendationSwap(v reportView) templ.Component {
	return recommendationSection(v, moneyForm{}, false)
}
