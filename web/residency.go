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
	"capplan/web/view"
)

// routeFields are the form's fields of one route.
var routeFields = []string{"name", "model", "residency", "cold_start_s", "memory_budget_gib", "admitted_concurrency", "queue_policy", "owner", "overload_outcome"}

// routesForm reads the residency table: "rows" lines, blank ones and
// those ticked for removal left out.
func routesForm(r *formReader) []planner.Route {
	n, _ := strconv.Atoi(r.str("rows"))
	var out []planner.Route
	for i := range min(n, 100) {
		if r.check(view.RouteField(i, "remove")) {
			continue
		}
		blank := true
		for _, f := range routeFields {
			if f != "residency" && r.str(view.RouteField(i, f)) != "" {
				blank = false
			}
		}
		if blank {
			continue
		}
		rt := planner.Route{
			Name:                r.str(view.RouteField(i, "name")),
			Model:               r.str(view.RouteField(i, "model")),
			Residency:           r.str(view.RouteField(i, "residency")),
			ColdStartS:          r.float(view.RouteField(i, "cold_start_s")),
			MemoryBudgetGiB:     r.float(view.RouteField(i, "memory_budget_gib")),
			AdmittedConcurrency: r.integer(view.RouteField(i, "admitted_concurrency")),
			QueuePolicy:         r.str(view.RouteField(i, "queue_policy")),
			Owner:               r.str(view.RouteField(i, "owner")),
			OverloadOutcome:     r.str(view.RouteField(i, "overload_outcome")),
		}
		r.domain(rt.Validate(), func(f string) string { return view.RouteField(i, f) })
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
	saved := strings.Join(names, ", ")
	if strings.TrimSpace(saved) == "" {
		saved = "—"
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "residency", Key: "routes", Form: form, Errs: fr.errs, Prev: routeMap(prev), Next: routeMap(routes), HistoryKey: "routes[]",
		Edit: s.edit(c, r, "residency plan saved: "+saved, reports.SecRoutes),
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
func residencyFor(v view.Report, f view.SectionForm) templ.Component {
	return view.ResidencySection(v, f, false)
}
