package web

import (
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/view"
)

// providerSave saves the provider view's inputs: the report's editors and
// finance may.
func (s *Server) providerSave(c echo.Context) error {
	read := func(f url.Values) (*planner.ProviderInputs, view.FormErrors) {
		p, errs := readProviderForm(f)
		if p != nil {
			// Figures dated after today are refused, naming their date
			// (docs/method.md, "Dated evidence").
			// The prices share the form's one date; a ledger total keeps
			// its own.
			figs := map[string]*planner.Figure{"provider": {EvidenceDate: strings.TrimSpace(f.Get("provider.evidence_date"))}}
			for _, fd := range planner.ProviderFields {
				if fd.Figure != nil && fd.OwnEvidence {
					figs[fd.Key()] = *fd.Figure(p)
				}
			}
			mergeFieldErrors(errs, planner.FutureEvidence(s.svc.AsOf(), figs))
		}
		return p, errs
	}
	return saveCostSection(s, c, reports.SecProvider, "provider", "provider view changed", read, view.ProviderSection)
}

// saveCostSection saves a section the report's editors and finance may
// change, stored whole as the document doc (a *T, nil when the form
// removes it): read turns the form into it, section shows it again (see
// saveSection for the pipeline).
func saveCostSection[T any](s *Server, c echo.Context, doc, anchor, action string, read func(url.Values) (*T, view.FormErrors), section func(view.Report, view.SectionForm, bool) templ.Component) error {
	r, err := s.costReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	var prev *T
	if _, err := s.store.Section(c.Request().Context(), r.ID, doc, &prev); err != nil {
		return err
	}
	next, errs := read(form)
	return s.saveSection(c, r, sectionSave{
		Anchor: anchor, Form: form, Errs: errs, Prev: prev, Next: next,
		Edit:  s.edit(c, r, action, anchor),
		Doc:   doc,
		Again: func(v view.Report, f view.SectionForm) templ.Component { return section(v, f, false) },
		Swap:  swapOf(func(v view.Report) templ.Component { return section(v, view.SectionForm{}, false) }),
	})
}

// readProviderForm reads the provider form, field by field from the
// registry; the prices' source and date are those of every figure in it
// but one with its own (a ledger total), and planner checks the amounts.
func readProviderForm(f url.Values) (*planner.ProviderInputs, view.FormErrors) {
	r := newFormReader(f)
	src, date := r.str("provider.source"), r.date("provider.evidence_date")
	p := &planner.ProviderInputs{Currency: strings.ToUpper(r.str("provider.currency"))}
	readFields(r, p, planner.ProviderFields, p.Currency)
	for _, fd := range planner.ProviderFields {
		if fig := *fd.Figure(p); fig != nil && !fd.OwnEvidence {
			fig.Source, fig.EvidenceDate = src, date
		}
	}
	if src == "" {
		r.refuse("provider.source", "required: name the price list or decision")
	}
	if date == "" {
		r.refuse("provider.evidence_date", "required (YYYY-MM-DD)")
	}
	r.domainIn(p.Validate(), "provider")
	return p, r.errs
}
