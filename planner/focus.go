package planner

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// FOCUS 1.2 (the FinOps Open Cost and Usage Specification) is how a
// showback leaves capplan for FinOps tools: one Usage row per tenant, its
// share of the shared box's monthly cost under one meter (docs/method.md,
// "Showback as FOCUS 1.2").

// FocusMandatory are FOCUS 1.2's mandatory columns.
var FocusMandatory = []string{
	"BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart",
	"ChargeCategory", "ChargeClass", "ChargeDescription", "ChargePeriodEnd", "ChargePeriodStart",
	"ContractedCost", "EffectiveCost", "InvoiceIssuerName", "ListCost", "PricingQuantity", "PricingUnit",
	"ProviderName", "PublisherName", "ServiceCategory", "ServiceName",
}

// FocusColumns are the columns written, in order: the mandatory ones,
// then the conditional and recommended ones that apply, then capplan's
// own, prefixed x_ as FOCUS asks of custom columns.
var FocusColumns = append(append([]string{}, FocusMandatory...),
	"ChargeFrequency", "ConsumedQuantity", "ConsumedUnit", "PricingCategory", "ResourceId", "ResourceName", "ResourceType",
	"ServiceSubcategory", "SkuId", "Tags",
	"x_Tenant", "x_Meter", "x_Share", "x_InObjectiveRequests", "x_InObjectiveBasis", "x_MeteredQuantity", "x_MeteredSpanSeconds", "x_ReportId")

// FocusInput is what a FOCUS export of a report's showback is made from.
type FocusInput struct {
	ReportID int64
	Title    string
	Model    string // the model the box serves
	Currency string // the report's
	AsOf     string // the report's date (YYYY-MM-DD), when the log has no start
	Showback *Showback
	Meter    string // MeterTokens or MeterRequests
	// InObjectiveShare is the share of successful requests that met the
	// objective at the ceiling (Capacity.InObjectiveShare); nil unknown.
	InObjectiveShare *float64
}

// focusTime writes an instant as FOCUS dates are written: ISO 8601 in UTC
// with Z.
func focusTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// focusDecimal writes a decimal with a dot and no grouping.
func focusDecimal(d decimal.Decimal) string { return d.String() }

// ShowbackFOCUS is the showback as FOCUS 1.2 rows (FocusColumns, one per
// tenant): the tenant's share of the box's monthly cost under the meter,
// for the calendar month the usage log starts in (the report's month for
// a log without a start). The box is owned, not invoiced at a list price,
// so the billed, effective, list and contracted costs are the same share.
// The quantities are over the same charge period as the cost: what the
// log metered (x_MeteredQuantity, over x_MeteredSpanSeconds) scaled to
// the charge period's length, so that cost / quantity is a price per token
// or per request (FOCUS: the cost and the quantity of a row cover its
// charge period); x_InObjectiveRequests is the tenant's requests over the
// charge period times the ceiling's in-objective share, blank when that
// share is not measured. A report without a showback, without the box's monthly cost
// or asked for another meter is refused.
func ShowbackFOCUS(in FocusInput) ([][]string, error) {
	sb := in.Showback
	switch {
	case in.Meter != MeterTokens && in.Meter != MeterRequests:
		return nil, fmt.Errorf("meter %q: FOCUS prices showback by tokens or requests", in.Meter)
	case sb == nil || !sb.Present:
		return nil, fmt.Errorf("no showback to export: import a usage log in the report's operations evidence")
	case sb.Monthly == nil:
		return nil, fmt.Errorf("the box's monthly cost is not known yet: enter the self-hosted costs before exporting showback")
	}
	var shares *MeterShares
	for i := range sb.Meters {
		if sb.Meters[i].Meter == in.Meter {
			shares = &sb.Meters[i]
		}
	}
	if shares == nil {
		return nil, fmt.Errorf("meter %q: not in this showback", in.Meter)
	}
	var start time.Time
	if sb.Start > 0 {
		start = time.Unix(int64(math.Floor(sb.Start)), 0).UTC()
	} else if t, err := time.Parse(time.DateOnly, in.AsOf); err == nil {
		start = t
	} else {
		return nil, fmt.Errorf("the usage log has no start and the report no date: no billing period")
	}
	from := time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, time.UTC)
	to := from.AddDate(0, 1, 0)
	if !(sb.SpanS > 0) {
		return nil, fmt.Errorf("the usage log spans no time: its quantities cannot be put over the month's cost")
	}
	// The log's quantities over the charge period: x (period / span).
	scale := decimal.NewFromFloat(to.Sub(from).Seconds()).Div(decimal.NewFromFloat(sb.SpanS))
	unit := "Tokens"
	if in.Meter == MeterRequests {
		unit = "Requests"
	}
	requests := map[string]float64{}
	for _, m := range sb.Meters {
		if m.Meter == MeterRequests {
			for _, t := range m.Tenants {
				requests[t.Tenant] = t.Amount
			}
		}
	}
	account := fmt.Sprintf("capplan-report-%d", in.ReportID)
	out := [][]string{FocusColumns}
	for _, t := range shares.Tenants {
		cost := decimal.Zero
		if t.Cost != nil {
			cost = t.Cost.Exact.Round(MoneyPlaces(t.Cost.Exact))
		}
		metered := decimal.NewFromFloat(t.Amount)
		qty := metered.Mul(scale).Round(3)
		inObj, basis := "", "not measured: the ceiling row has no per-request records"
		if in.InObjectiveShare != nil {
			inObj = decimal.NewFromFloat(requests[t.Tenant]).Mul(scale).Mul(decimal.NewFromFloat(*in.InObjectiveShare)).Round(0).String()
			basis = "requests over the charge period x the ceiling row's in-objective share " + DisplayShare(*in.InObjectiveShare)
		}
		tags, _ := json.Marshal(map[string]string{"tenant": t.Tenant, "meter": in.Meter, "report": account})
		row := map[string]string{
			"BilledCost": focusDecimal(cost), "BillingAccountId": account, "BillingAccountName": in.Title,
			"BillingCurrency": in.Currency, "BillingPeriodEnd": focusTime(to), "BillingPeriodStart": focusTime(from),
			"ChargeCategory": "Usage", "ChargeClass": "",
			"ChargeDescription": fmt.Sprintf("%s's share (%s by %s) of the shared box's monthly cost serving %s", t.Tenant, DisplayShare(t.Share), in.Meter, orText(in.Model, "the contract's model")),
			"ChargePeriodEnd":   focusTime(to), "ChargePeriodStart": focusTime(from),
			"ContractedCost": focusDecimal(cost), "EffectiveCost": focusDecimal(cost), "ListCost": focusDecimal(cost),
			"InvoiceIssuerName": "Self-hosted", "ProviderName": "Self-hosted", "PublisherName": "Self-hosted",
			"PricingQuantity": focusDecimal(qty), "PricingUnit": unit,
			"ServiceCategory": "AI and Machine Learning", "ServiceName": "LLM inference: " + orText(in.Model, "self-hosted model"),
			"ChargeFrequency": "Usage-Based", "ConsumedQuantity": focusDecimal(qty), "ConsumedUnit": unit,
			"PricingCategory": "Standard", "ResourceId": account + "/box", "ResourceName": orText(in.Model, "GPU box") + " box",
			"ResourceType": "GPU server", "ServiceSubcategory": "Generative AI", "SkuId": "llm-inference-" + in.Meter,
			"Tags": string(tags), "x_Tenant": t.Tenant, "x_Meter": in.Meter,
			"x_Share": decimal.NewFromFloat(t.Share).Round(6).String(), "x_InObjectiveRequests": inObj, "x_InObjectiveBasis": basis,
			"x_MeteredQuantity": focusDecimal(metered), "x_MeteredSpanSeconds": decimal.NewFromFloat(sb.SpanS).Round(3).String(), "x_ReportId": fmt.Sprint(in.ReportID),
		}
		line := make([]string, len(FocusColumns))
		for i, c := range FocusColumns {
			line[i] = row[c]
		}
		out = append(out, line)
	}
	return out, nil
}

func orText(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
