package web

import (
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// admissionForm reads the lead's admission choices; an empty field keeps
// the proposal. Field names are planner's without "admission.".
func admissionForm(r *formReader) planner.AdmissionInput {
	a := planner.AdmissionInput{
		OverrideMaxInFlight: r.integer("override_max_in_flight"),
		OverrideReason:      r.str("override_reason"),
		QueueSize:           r.integer("queue_size"),
		MaxQueueAgeS:        r.float("max_queue_age_s"),
		RetryAfterS:         r.integer("retry_after_s"),
		ClientMaxRetries:    r.integer("client_max_retries"),
	}
	r.domain(a.Validate(), func(f string) string { return strings.TrimPrefix(f, "admission.") })
	return a
}

// admissionSave records the lead's override of the admission proposal.
func (s *Server) admissionSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	fr := newFormReader(form)
	a := admissionForm(fr)
	var prev planner.AdmissionInput
	if _, err := s.store.Section(c.Request().Context(), r.ID, reports.SecAdmission, &prev); err != nil {
		return err
	}
	action := "admission settings saved"
	if a.OverrideMaxInFlight != nil {
		action = "admission limit overridden: " + a.OverrideReason
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "envelope", Key: "admission", Form: form, Errs: fr.errs, Prev: prev, Next: a,
		Edit: s.edit(c, r, action, reports.SecAdmission),
		Doc:  reports.SecAdmission,
	})
}

// envelopeFor is the envelope section with a form state.
func envelopeFor(v view.Report, f view.SectionForm) templ.Component {
	return view.EnvelopeSection(v, f, false)
}
