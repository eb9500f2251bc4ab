package view

import (
	"fmt"
	"strconv"
)

// RouteField names one field of route i in the residency form; the names
// match planner's "routes[i].field" so refusals land on their cell.
func RouteField(i int, name string) string { return fmt.Sprintf("routes[%d].%s", i, name) }

// routeRows are the lines the form shows: as typed after a refusal, else
// the stored routes and one blank line to add a route.
func routeRows(v Report, f SectionForm) int {
	if f.is("routes") && f.Form != nil {
		if n, err := strconv.Atoi(f.Form.Get("rows")); err == nil && n >= 0 {
			return min(n, 100)
		}
	}
	return len(v.In.Routes) + 1
}

// routeValue is what the form shows in route i's field.
func routeValue(v Report, f SectionForm, i int, field string) string {
	var stored string
	if i < len(v.In.Routes) {
		rt := v.In.Routes[i]
		switch field {
		case "name":
			stored = rt.Name
		case "model":
			stored = rt.Model
		case "residency":
			stored = rt.Residency
		case "cold_start_s":
			stored = optNum(rt.ColdStartS)
		case "memory_budget_gib":
			stored = optNum(rt.MemoryBudgetGiB)
		case "admitted_concurrency":
			stored = optIntField(rt.AdmittedConcurrency)
		case "queue_policy":
			stored = rt.QueuePolicy
		case "owner":
			stored = rt.Owner
		case "overload_outcome":
			stored = rt.OverloadOutcome
		}
	} else if field == "residency" {
		stored = "resident"
	}
	return f.Val("routes", RouteField(i, field), stored)
}

// fitsText is the fit check's verdict in a word.
func fitsText(fits *bool) (word, class string) {
	switch {
	case fits == nil:
		return "not judged", "notjudged"
	case *fits:
		return "fits", "pass"
	}
	return "does not fit", "fail"
}

// plainNumOr formats a figure without trailing zeros, "0" for zero.
func plainNumOr(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
