package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// overloadForm reads the overload test record.
func overloadForm(r *formReader) planner.OverloadTest {
	t := planner.OverloadTest{
		Sent:          r.str("sent"),
		Outcome:       r.str("outcome"),
		RetryAfter:    r.check("retry_after"),
		WorkerHealthy: r.check("worker_healthy"),
		Recovered:     r.check("recovered"),
		Date:          r.str("date"),
		Notes:         r.str("notes"),
	}
	if t.Sent == "" {
		r.errs["sent"] = "say what was sent above the limit, e.g. 20 concurrent streams for 60 s"
	}
	if t.Outcome == "" {
		r.errs["outcome"] = "say what came back"
	}
	r.domain(t.Validate(), nil)
	return t
}

// overloadSave records the overload test.
func (s *Server) overloadSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	fr := newFormReader(form)
	t := overloadForm(fr)
	var prev planner.OverloadTest
	if _, err := s.store.Section(c.Request().Context(), r.ID, reports.SecOverload, &prev); err != nil {
		return err
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "overload", Key: "overload", Form: form, Errs: fr.errs, Prev: prev, Next: t,
		Edit: s.edit(c, r, "overload test recorded", reports.SecOverload),
		Doc:  reports.SecOverload,
	})
}

// overloadFor is the overload section with a form state.
func overloadFor(v view.Report, f view.SectionForm) templ.Component {
	return view.OverloadSection(v, f, false)
}
