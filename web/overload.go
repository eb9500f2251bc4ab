package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
)

// overloadOutcomes are the choices of what came back above the limit.
var overloadOutcomes = []struct{ Value, Label string }{
	{planner.OverloadRejected429, "refused with HTTP 429"},
	{planner.OverloadBoundedQueue, "queued within the maximum queue age"},
	{planner.OverloadOther, "something else (timeouts, 5xx, OOM, ...)"},
}

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
	f := sectionForm{Key: "overload", Form: form, Errs: fr.errs}
	if len(fr.errs) > 0 {
		return s.sectionAnswer(c, http.StatusUnprocessableEntity, "overload", overloadFor, f)
	}
	ctx := c.Request().Context()
	var prev planner.OverloadTest
	if _, err := s.store.Section(ctx, r.ID, secOverload, &prev); err != nil {
		return err
	}
	e := s.historyEdit(c, r, "overload test recorded", secOverload, prev, t)
	err = s.store.SaveSection(ctx, e, secOverload, t)
	return s.saveAnswer(c, r, err, "overload", overloadFor, f, overloadSwap)
}

// overloadFor is the overload section with a form state.
func overloadFor(v reportView, f sectionForm) templ.Component { return overloadSection(v, f, false) }

// overloadTest is the recorded test, or an empty one for the form.
func overloadTest(in planner.Inputs) planner.OverloadTest {
	if in.Overload == nil {
		return planner.OverloadTest{}
	}
	return *in.Overload
}

// outcomeLabel names an overload outcome for people.
func outcomeLabel(v string) string {
	for _, o := range overloadOutcomes {
		if o.Value == v {
			return o.Label
		}
	}
	return dash(v)
}
