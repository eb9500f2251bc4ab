package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
)

func (s *Server) contractEdit(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	v := contractEditView{R: r, C: r.Contract}
	return s.render(c, http.StatusOK, layout(s.page(c, r.Title+" · contract"), contractEditPage(s.page(c, ""), v)), contractEditForm(v))
}

func (s *Server) contractSave(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	next, errs := contractForm(form)
	reason := strings.TrimSpace(form.Get("reason"))
	v := contractEditView{R: r, C: next, Form: form, Errs: errs, Reason: reason}

	var amend []store.Amendment
	if r.Frozen() && len(errs) == 0 {
		results, err := s.store.HasResults(ctx, r.ID)
		if err != nil {
			return err
		}
		amend = amendments(r.Contract, next, results, reason)
		if len(amend) > 0 && reason == "" {
			errs["reason"] = "required: say why the frozen " + amend[0].Field + " changes"
		}
		if len(next.Missing()) > 0 {
			errs["contract"] = "a frozen contract must stay complete; missing: " + strings.Join(next.MissingLabels(), ", ")
		}
	}
	if len(errs) > 0 {
		return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, r.Title), contractEditPage(s.page(c, ""), v)), contractEditForm(v))
	}

	action := "contract edited"
	if len(amend) > 0 {
		action = "contract amended: " + reason
	}
	e := s.edit(c, r, action, "contract")
	e.Before, e.After = diffJSON(r.Contract, next)
	if e.Before == "" && e.After == "" {
		return redirect(c, fmt.Sprintf("/reports/%d#contract", r.ID)) // nothing changed
	}
	err = s.store.SaveContract(ctx, e, next, amend)
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		cur, err := s.store.Report(ctx, r.ID)
		if err != nil {
			return err
		}
		v.R, v.Conflict = cur, ce
		return s.render(c, http.StatusConflict, layout(s.page(c, r.Title), contractEditPage(s.page(c, ""), v)), contractEditForm(v))
	}
	if err != nil {
		return userError(err)
	}
	if isPartial(c.Request()) {
		rv, err := s.loadReport(c)
		if err != nil {
			return err
		}
		c.Response().Header().Set("HX-Push-Url", fmt.Sprintf("/reports/%d", r.ID))
		return s.render(c, http.StatusOK, nil, contractSectionWithHistory(rv))
	}
	return redirect(c, fmt.Sprintf("/reports/%d#contract", r.ID))
}

func (s *Server) contractFreeze(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	if c.FormValue("confirm") == "" {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Confirm the freeze: tick that you have read the contract (after the freeze, changes are amendments).")
	}
	if m := r.Contract.MissingLabels(); len(m) > 0 {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "The contract cannot be frozen yet; fill in: "+strings.Join(m, ", ")+".")
	}
	e := s.edit(c, r, "contract frozen", "contract")
	if err := s.store.Freeze(c.Request().Context(), e); err != nil {
		return userError(err)
	}
	return redirectFlash(c, fmt.Sprintf("/reports/%d#contract", r.ID), "Contract frozen.")
}

// amendments lists what a change to a frozen contract amends: the
// objective, the workload and the rows, each with old and new values.
func amendments(prev, next planner.Contract, resultsExist bool, reason string) []store.Amendment {
	var out []store.Amendment
	if prev.Objective.String() != next.Objective.String() {
		loosened, _ := planner.Loosened(prev.Objective, next.Objective)
		out = append(out, store.Amendment{Field: "objective", Old: prev.Objective.String(), New: next.Objective.String(),
			Reason: reason, Loosened: loosened, ResultsExisted: resultsExist})
	}
	if prev.Workload != next.Workload {
		out = append(out, store.Amendment{Field: "workload", Old: workloadText(prev.Workload), New: workloadText(next.Workload),
			Reason: reason, ResultsExisted: resultsExist})
	}
	if prev.LoadKind != next.LoadKind || joinLoads(prev.Loads) != joinLoads(next.Loads) {
		out = append(out, store.Amendment{Field: "rows", Old: string(prev.LoadKind) + " " + joinLoads(prev.Loads),
			New: string(next.LoadKind) + " " + joinLoads(next.Loads), Reason: reason, ResultsExisted: resultsExist})
	}
	return out
}

// diffJSON describes what changed between two values as "field: value"
// lines, one side each; both empty when nothing changed.
func diffJSON(a, b any) (before, after string) {
	fa, fb := flatten(a), flatten(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		if fa[k] != fb[k] {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	var bl, al []string
	for _, k := range ks {
		bl = append(bl, fieldLabel(k)+": "+fa[k])
		al = append(al, fieldLabel(k)+": "+fb[k])
	}
	return strings.Join(bl, "\n"), strings.Join(al, "\n")
}

// flatten turns a value's JSON into dotted paths and printed leaves.
func flatten(v any) map[string]string {
	out := map[string]string{}
	b, _ := json.Marshal(v)
	var x any
	json.Unmarshal(b, &x)
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, v := range t {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, v)
			}
		case nil:
			out[prefix] = ""
		default:
			b, _ := json.Marshal(t)
			out[prefix] = strings.Trim(string(b), `"`)
		}
	}
	walk("", x)
	return out
}
