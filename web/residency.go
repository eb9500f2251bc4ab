package web

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
)

// routeField names one field of route i in the residency form; the names
// match planner's "routes[i].field" so refusals land on their cell.
func routeField(i int, name string) string { return fmt.Sprintf("routes[%d].%s", i, name) }

// routeFields are the form's fields of one route.
var routeFields = []string{"name", "model", "residency", "cold_start_s", "memory_budget_gib", "admitted_concurrency", "queue_policy", "owner", "overload_outcome"}

// routesForm reads the residency table: "rows" lines, blank ones and
// those ticked for removal left out.
func routesForm(r *formReader) []planner.Route {
	n, _ := strconv.Atoi(r.str("rows"))
	var out []planner.Route
	for i := range min(n, 100) {
		if r.check(routeField(i, "remove")) {
			continue
		}
		blank := true
		for _, f := range routeFields {
			if f != "residency" && r.str(routeField(i, f)) != "" {
				blank = false
			}
		}
		if blank {
			continue
		}
		rt := planner.Route{
			Name:                r.str(routeField(i, "name")),
			Model:               r.str(routeField(i, "model")),
			Residency:           r.str(routeField(i, "residency")),
			ColdStartS:          r.float(routeField(i, "cold_start_s")),
			MemoryBudgetGiB:     r.float(routeField(i, "memory_budget_gib")),
			AdmittedConcurrency: r.integer(routeField(i, "admitted_concurrency")),
			QueuePolicy:         r.str(routeField(i, "queue_policy")),
			Owner:               r.str(routeField(i, "owner")),
			OverloadOutcome:     r.str(routeField(i, "overload_outcome")),
		}
		r.domain(rt.Validate(), func(f string) string { return routeField(i, f) })
		out = append(out, rt)
	}
	return out
}

// residencySave replaces the report's routes.
func (s *Server) residencySave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	fr := newFormReader(form)
	routes := routesForm(fr)
	var prev []planner.Route
	if _, err := s.store.Section(c.Request().Context(), r.ID, reports.SecRoutes, &prev); err != nil {
		return err
	}
	names := make([]string, len(routes))
	for i, rt := range routes {
		names[i] = rt.Name
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "residency", Key: "routes", Form: form, Errs: fr.errs, Prev: routeMap(prev), Next: routeMap(routes), HistoryKey: "routes[]",
		Edit: s.edit(c, r, "residency plan saved: "+dash(strings.Join(names, ", ")), reports.SecRoutes),
		Save: func(ctx context.Context, e store.Edit) error {
			return s.store.SaveSection(ctx, e, reports.SecRoutes, routes)
		},
	})
}

// routeMap keys routes by name so the history diff names the route.
func routeMap(rs []planner.Route) map[string]planner.Route {
	m := make(map[string]planner.Route, len(rs))
	for i, rt := range rs {
		m[orDefaultName(rt.Name, i)] = rt
	}
	return m
}

func orDefaultName(name string, i int) string {
	if name == "" {
		return fmt.Sprintf("route %d", i+1)
	}
	return name
}

// residencyFor is the residency section with a form state.
func residencyFor(v reportView, f sectionForm) templ.Component { return residencySection(v, f, false) }

// routeRows are the lines the form shows: as typed after a refusal, else
// the stored routes and one blank line to add a route.
func routeRows(v reportView, f sectionForm) int {
	if f.is("routes") && f.Form != nil {
		if n, err := strconv.Atoi(f.Form.Get("rows")); err == nil && n >= 0 {
			return min(n, 100)
		}
	}
	return len(v.In.Routes) + 1
}

// routeValue is what the form shows in route i's field.
func routeValue(v reportView, f sectionForm, i int, field string) string {
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
	return f.val("routes", routeField(i, field), stored)
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
