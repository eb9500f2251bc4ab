package web

import (
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/charts"
	"capplan/web/reports"
)

// providerSave saves the provider view's inputs: the report's editors and
// finance may.
func (s *Server) providerSave(c echo.Context) error {
	read := func(f url.Values) (*planner.ProviderInputs, formErrors) {
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
	return saveCostSection(s, c, reports.SecProvider, "provider", "provider view changed", read, providerSection)
}

// saveCostSection saves a section the report's editors and finance may
// change, stored whole as the document doc (a *T, nil when the form
// removes it): read turns the form into it, section shows it again (see
// saveSection for the pipeline).
func saveCostSection[T any](s *Server, c echo.Context, doc, anchor, action string, read func(url.Values) (*T, formErrors), section func(reportView, sectionForm, bool) templ.Component) error {
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
		Again: func(v reportView, f sectionForm) templ.Component { return section(v, f, false) },
		Swap:  swapOf(func(v reportView) templ.Component { return section(v, sectionForm{}, false) }),
	})
}

// readProviderForm reads the provider form, field by field from the
// registry; the prices' source and date are those of every figure in it
// but one with its own (a ledger total), and planner checks the amounts.
func readProviderForm(f url.Values) (*planner.ProviderInputs, formErrors) {
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

// providerStored is the provider form filled from stored inputs.
func providerStored(p *planner.ProviderInputs) url.Values {
	v := url.Values{}
	if p == nil {
		return v
	}
	v.Set("provider.currency", p.Currency)
	for _, fd := range planner.ProviderFields {
		fig := *fd.Figure(p)
		switch {
		case fig == nil:
		case fd.OwnEvidence:
			putFigure(v, fd.Key(), fig)
		default:
			v.Set(fd.Key(), fig.Amount.String())
			v.Set("provider.source", fig.Source)
			v.Set("provider.evidence_date", fig.EvidenceDate)
		}
	}
	return v
}

// providerChart draws monthly revenue, cost and margin against
// utilisation, with break-even and the expected utilisation marked.
func providerChart(pv planner.ProviderView, currency string) templ.Component {
	c := charts.CostLines{Title: "Monthly margin against utilisation", Currency: currency, XName: "utilisation (%)", XMax: 100.0,
		Series: map[string][]*float64{}, Marks: map[string][]charts.Mark{}}
	for _, pt := range pv.Chart {
		c.Demand = append(c.Demand, pt.Utilisation*100)
		c.Series["revenue"] = append(c.Series["revenue"], planner.F(pt.Revenue))
		c.Series["cost"] = append(c.Series["cost"], planner.F(pt.Cost))
		c.Series["margin"] = append(c.Series["margin"], planner.F(pt.Margin))
	}
	if be := pv.BreakEvenUtilisation; be != nil && *be <= 1 {
		c.Marks["margin"] = append(c.Marks["margin"], charts.Mark{Label: "break-even " + planner.DisplayShare(*be), Demand: *be * 100})
	}
	if u := pv.ExpectedUtilisation; u != nil {
		c.Marks["margin"] = append(c.Marks["margin"], charts.Mark{Label: "expected " + planner.DisplayShare(*u), Demand: *u * 100, Minor: true})
	}
	return charts.CostLinesChart(c)
}

func optShare(v *float64) string {
	if v == nil {
		return "—"
	}
	return planner.DisplayShare(*v)
}

func optCount(v *int64) string {
	if v == nil {
		return "—"
	}
	return planner.DisplayCount(*v)
}

// providerCurrency is the currency the provider form's prices are typed in:
// as typed, else as stored, else the report's.
func providerCurrency(v reportView, f sectionForm, stored url.Values) string {
	if c := f.val("", "provider.currency", stored.Get("provider.currency")); c != "" {
		return c
	}
	return v.Result.Currency
}
