package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"capplan/planner"
	"capplan/web/store"
)

// moneyForm is what a report section's forms show: the values (typed by
// the user when re-shown after a refusal, else the stored ones), the
// refused fields and a save conflict.
type moneyForm struct {
	Vals     url.Values
	Errs     formErrors
	Conflict *store.ConflictError
}

// val returns the shown value of a field.
func (fs moneyForm) val(name string) string { return fs.Vals.Get(name) }

// loadQuotes adds what the money sections need beyond reportView's basics:
// the attached quotes with their library records, the library to attach
// from, and whether the user may edit costs.
func (s *Server) loadQuotes(c echo.Context, v *reportView) error {
	ctx := c.Request().Context()
	var err error
	if v.Quotes, err = s.store.ReportQuotes(ctx, v.R.ID); err != nil {
		return err
	}
	if v.QuoteLibrary, err = s.store.Quotes(ctx); err != nil {
		return err
	}
	v.CanEditCosts = canEditCosts(v.R, currentUser(c))
	return nil
}

// canEditCosts: the report's editors and finance change costs, quotes and
// demand scenarios.
func canEditCosts(r store.Report, u *store.User) bool {
	return u != nil && (r.CanEdit(*u) || u.Role == store.RoleFinance)
}

// reportQuotes is the attached quotes as planner inputs.
func (s *Server) reportQuotes(ctx context.Context, reportID int64) ([]planner.Quote, error) {
	qs, err := s.store.ReportQuotes(ctx, reportID)
	if err != nil {
		return nil, err
	}
	out := make([]planner.Quote, len(qs))
	for i, q := range qs {
		out[i] = q.Q
		if out[i].Currency == "" { // the library's currency column: never priced as the report's
			out[i].Currency = q.Currency
		}
	}
	return out, nil
}

// sectionSave is the shared tail of every report-section form post: on
// refused input re-render the section with 422, otherwise save through
// save (a report change with its history entry), answer a conflict with
// 409, and then redirect or swap the updated sections.
type sectionSave struct {
	anchor  string                                           // section id, e.g. "costs"
	render  func(v reportView, fs moneyForm) templ.Component // the section with its forms
	swap    func(v reportView) templ.Component               // what an htmx success swaps
	errs    formErrors
	form    url.Values
	before  any
	after   any
	edit    store.Edit
	save    func(ctx context.Context, e store.Edit) error
	changed bool // set to force a save when before and after print alike
}

func (s *Server) finishSection(c echo.Context, r store.Report, ss sectionSave) error {
	ctx := c.Request().Context()
	show := func(status int, fs moneyForm) error {
		v, err := s.loadReport(c)
		if err != nil {
			return err
		}
		return s.render(c, status, layout(s.page(c, v.R.Title), ss.render(v, fs)), ss.render(v, fs))
	}
	if len(ss.errs) > 0 {
		return show(http.StatusUnprocessableEntity, moneyForm{Vals: ss.form, Errs: ss.errs})
	}
	e := ss.edit
	if ss.before != nil || ss.after != nil {
		e.Before, e.After = diffJSON(ss.before, ss.after)
		if e.Before == "" && e.After == "" && !ss.changed {
			return s.sectionDone(c, r.ID, ss) // nothing changed
		}
	}
	err := ss.save(ctx, e)
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		return show(http.StatusConflict, moneyForm{Vals: ss.form, Conflict: ce})
	}
	if err != nil {
		return userError(err)
	}
	return s.sectionDone(c, r.ID, ss)
}

// sectionDone answers a successful save: the updated sections for htmx,
// else a redirect to the section.
func (s *Server) sectionDone(c echo.Context, id int64, ss sectionSave) error {
	if !isPartial(c.Request()) {
		return redirect(c, fmt.Sprintf("/reports/%d#%s", id, ss.anchor))
	}
	v, err := s.loadReport(c)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, nil, ss.swap(v))
}

// withStoredValues fills fs.Vals with the stored inputs of the money
// sections wherever the form did not bring a value.
func withStoredValues(v reportView, fs moneyForm) moneyForm {
	stored := url.Values{}
	settingsValues(stored, v.In)
	selfHostedValues(stored, v.In.SelfHosted)
	scenarioValues(stored, v.In.Scenarios)
	recommendationValues(stored, v.In.Recommendation)
	if fs.Vals == nil {
		fs.Vals = stored
		return fs
	}
	merged := url.Values{}
	for k, vs := range stored {
		merged[k] = vs
	}
	for k, vs := range fs.Vals {
		merged[k] = vs
	}
	fs.Vals = merged
	return fs
}

// moneyText shows an amount as the planner displays it (planner.DisplayMoney:
// cents, or 3 significant figures when cents show fewer): 2,000.00, 0.00578.
func moneyText(m planner.Money) string { return m.Display() }

// exactTitle is the tooltip of a displayed amount: its exact value.
func exactTitle(m planner.Money) string { return "exact: " + m.Exact.String() }

// optExactTitle is exactTitle of an optional amount, "" when absent.
func optExactTitle(m *planner.Money) string {
	if m == nil {
		return ""
	}
	return exactTitle(*m)
}

// optMoney shows an optional amount, "—" when absent.
func optMoneyText(m *planner.Money) string {
	if m == nil {
		return "—"
	}
	return moneyText(*m)
}

// decText shows an exact decimal as the planner computed it.
func decText(d *decimal.Decimal) string {
	if d == nil {
		return "—"
	}
	return groupDigits(d.String())
}

// count shows a whole number with thousands separators.
func countText(n int64) string { return groupDigits(fmt.Sprint(n)) }

// groupDigits puts thousands separators into a plain decimal number.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// rate shows a rate with up to two decimals.
func rateText(v float64) string { return groupDigits(decimal.NewFromFloat(v).Round(2).String()) }

// optRate shows an optional rate.
func optRateText(v *float64) string {
	if v == nil {
		return "—"
	}
	return rateText(*v)
}

// evidenceText cites one input: amount, unit, source and date.
func evidenceText(e planner.Evidence) string {
	s := e.Amount
	if e.Unit != "" {
		s += " " + e.Unit
	}
	if e.Source != "" {
		s += ", " + e.Source
	}
	if e.EvidenceDate != "" {
		s += ", " + e.EvidenceDate
	}
	return s
}

// evidenceStatus names what is wrong with a piece of evidence the planner
// flagged: "stale: 120 days old, …" for an old date, the problem alone
// ("no evidence date", "malformed evidence date") when there is no date to
// be old by.
func evidenceStatus(e planner.Evidence) string {
	switch {
	case e.AgeDays == nil && e.Problem != "":
		return e.Problem
	case e.Problem != "":
		return "stale: " + e.Problem
	}
	return "stale"
}
