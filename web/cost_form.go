package web

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// figureSpec is one Figure input of a form: its field name (as planner
// names it in validation errors), its label and its usual unit, where
// "CUR" stands for the report's currency.
type figureSpec struct {
	Field string
	Label string
	Unit  string
	Hint  string
}

// selfHostedFigures are the self-hosted cost inputs, in the order
// docs/method.md lists the categories.
var selfHostedFigures = []figureSpec{
	{"self_hosted.purchase_price", "Equipment purchase price", "CUR", "when bought: spread over the depreciation months"},
	{"self_hosted.rent_per_hour", "Equipment rent per hour", "CUR/h", "when rented"},
	{"self_hosted.rent_hours_per_month", "Rented hours per month", "h/month", "blank means 730"},
	{"self_hosted.power_watts", "Power draw", "W", "used when the ceiling row has no measured watts"},
	{"self_hosted.power_price_per_kwh", "Power price", "CUR/kWh", ""},
	{"self_hosted.pue", "PUE", "ratio", "at least 1; blank means 1"},
	{"self_hosted.power_hours_per_month", "Powered hours per month", "h/month", "blank means 730"},
	{"self_hosted.facilities", "Facilities", "CUR/month", ""},
	{"self_hosted.hosting", "Hosting", "CUR/month", ""},
	{"self_hosted.support", "Support", "CUR/month", ""},
	{"self_hosted.software", "Software", "CUR/month", ""},
	{"self_hosted.monitoring", "Monitoring", "CUR/month", ""},
	{"self_hosted.backup", "Backup", "CUR/month", ""},
	{"self_hosted.labour_hours_per_month", "Operator labour hours", "h/month", "required: type 0 if none is spent"},
	{"self_hosted.labour_rate", "Operator labour loaded rate", "CUR/h", "required: type 0 if none is spent"},
	{"self_hosted.downtime_allowance", "Expected downtime allowance", "CUR/month", ""},
	{"self_hosted.per_request", "Variable cost per request (V_local)", "CUR/request", "blank means 0"},
}

// selfHostedField returns the address of the Figure a spec names.
func selfHostedField(s *planner.SelfHostedCosts, field string) **planner.Figure {
	switch strings.TrimPrefix(field, "self_hosted.") {
	case "purchase_price":
		return &s.PurchasePrice
	case "rent_per_hour":
		return &s.RentPerHour
	case "rent_hours_per_month":
		return &s.RentHoursPerMonth
	case "power_watts":
		return &s.PowerWatts
	case "power_price_per_kwh":
		return &s.PowerPricePerKWh
	case "pue":
		return &s.PUE
	case "power_hours_per_month":
		return &s.PowerHoursPerMonth
	case "facilities":
		return &s.Facilities
	case "hosting":
		return &s.Hosting
	case "support":
		return &s.Support
	case "software":
		return &s.Software
	case "monitoring":
		return &s.Monitoring
	case "backup":
		return &s.Backup
	case "labour_hours_per_month":
		return &s.LabourHoursPerMonth
	case "labour_rate":
		return &s.LabourRate
	case "downtime_allowance":
		return &s.DowntimeAllowance
	case "per_request":
		return &s.PerRequest
	}
	panic("web: unknown self-hosted field " + field)
}

// unitFor fills the report's currency into a spec's unit.
func unitFor(unit, currency string) string {
	return strings.ReplaceAll(unit, "CUR", currency)
}

// readFigure reads one Figure from the form fields field, field.unit,
// field.source and field.evidence_date; nil when no amount was typed.
func readFigure(f url.Values, field, defUnit string, errs formErrors) *planner.Figure {
	a := strings.TrimSpace(strings.ReplaceAll(f.Get(field), ",", ""))
	if a == "" {
		return nil
	}
	d, err := decimal.NewFromString(a)
	if err != nil {
		errs[field] = "must be a number, e.g. 1200.50; got " + strconv.Quote(f.Get(field))
		return nil
	}
	unit := strings.TrimSpace(f.Get(field + ".unit"))
	if unit == "" {
		unit = defUnit
	}
	return &planner.Figure{Amount: d, Unit: unit, Source: strings.TrimSpace(f.Get(field + ".source")),
		EvidenceDate: strings.TrimSpace(f.Get(field + ".evidence_date"))}
}

// putFigure writes a Figure into form values under field (the reverse of
// readFigure).
func putFigure(v url.Values, field string, fig *planner.Figure) {
	if fig == nil {
		return
	}
	v.Set(field, fig.Amount.String())
	v.Set(field+".unit", fig.Unit)
	v.Set(field+".source", fig.Source)
	v.Set(field+".evidence_date", fig.EvidenceDate)
}

// selfHostedForm reads the self-hosted cost form and checks it with the
// planner's rules; errors are keyed by the planner's field names.
func readSelfHostedForm(f url.Values, currency string) (planner.SelfHostedCosts, formErrors) {
	errs := formErrors{}
	s := planner.SelfHostedCosts{EquipmentMode: strings.TrimSpace(f.Get("self_hosted.equipment_mode"))}
	if m := strings.TrimSpace(f.Get("self_hosted.depreciation_months")); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil {
			errs["self_hosted.depreciation_months"] = "must be a whole number of months"
		}
		s.DepreciationMonths = n
	}
	for _, sp := range selfHostedFigures {
		*selfHostedField(&s, sp.Field) = readFigure(f, sp.Field, unitFor(sp.Unit, currency), errs)
	}
	mergeFieldErrors(errs, s.Validate(), "")
	return s, errs
}

// selfHostedValues is the self-hosted form filled from stored inputs.
func selfHostedValues(v url.Values, s planner.SelfHostedCosts) {
	v.Set("self_hosted.equipment_mode", s.EquipmentMode)
	if s.DepreciationMonths != 0 {
		v.Set("self_hosted.depreciation_months", strconv.Itoa(s.DepreciationMonths))
	}
	for _, sp := range selfHostedFigures {
		putFigure(v, sp.Field, *selfHostedField(&s, sp.Field))
	}
}

// settingsForm reads the report settings form.
func settingsForm(f url.Values) (reportSettings, formErrors) {
	errs := formErrors{}
	s := reportSettings{
		Currency:   strings.ToUpper(strings.TrimSpace(f.Get("currency"))),
		TokenBasis: strings.TrimSpace(f.Get("token_basis")),
	}
	whole := func(name string) int {
		v := strings.TrimSpace(f.Get(name))
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			errs[name] = "must be a whole number"
		}
		return n
	}
	s.MaxBoxes, s.StaleAfterDays = whole("max_boxes"), whole("stale_after_days")
	in := planner.Inputs{Currency: s.Currency, TokenBasis: s.TokenBasis, MaxBoxes: s.MaxBoxes, StaleAfterDays: s.StaleAfterDays}
	mergeFieldErrors(errs, in.Validate(), "currency", "token_basis", "max_boxes", "stale_after_days")
	if s.Currency != "" && !isCurrencyCode(s.Currency) {
		errs["currency"] = "a three-letter currency code, e.g. EUR; got " + strconv.Quote(s.Currency)
	}
	return s, errs
}

func isCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

func settingsValues(v url.Values, in planner.Inputs) {
	v.Set("currency", in.Currency)
	v.Set("token_basis", in.TokenBasis)
	if in.MaxBoxes != 0 {
		v.Set("max_boxes", strconv.Itoa(in.MaxBoxes))
	}
	if in.StaleAfterDays != 0 {
		v.Set("stale_after_days", strconv.Itoa(in.StaleAfterDays))
	}
}

// mergeFieldErrors adds the planner's field errors to errs (a parse error
// already there wins). With prefixes, only fields equal to one of them or
// below it are kept.
func mergeFieldErrors(errs formErrors, err error, prefixes ...string) {
	if err == nil {
		return
	}
	var fes planner.FieldErrors
	if !errors.As(err, &fes) {
		errs["form"] = err.Error()
		return
	}
	for _, fe := range fes {
		keep := len(prefixes) == 0
		for _, p := range prefixes {
			if p == "" || fe.Field == p || strings.HasPrefix(fe.Field, p+".") || strings.HasPrefix(fe.Field, p+"[") {
				keep = true
			}
		}
		if _, seen := errs[fe.Field]; keep && !seen {
			errs[fe.Field] = fe.Message
		}
	}
}
