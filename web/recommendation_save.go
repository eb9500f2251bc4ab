package web

import (
	"context"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/web/store"
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
	return s.finishSection(c, r, sectionSave{
		anchor: "recommendation", render: recommendationSectionAlone, swap: recommendationSwap,
		errs: errs, form: form, before: in.Recommendation, after: next,
		edit: s.edit(c, r, "recommendation changed", "recommendation"),
		save: func(ctx context.Context, e store.Edit) error {
			return s.store.SaveSection(ctx, e, secRecommendation, next)
		},
	})
}

func recommendationSectionAlone(v reportView, fs moneyForm) templ.Component {
	return recommendationSection(v, fs, false)
}

func recommendationSwap(v reportView) templ.Component {
	return templ.Join(recommendationSection(v, moneyForm{}, false), historySection(v.R.ID, v.History, true))
}
