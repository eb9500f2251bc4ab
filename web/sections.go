package web

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
)

// The report is walked in steps, each a page of its own (docs/ARCHITECTURE.md,
// "The report in steps"): the overview with the answers, the way through and
// the exit check, then one page per step. Every section of the report is one
// entry of reportSections below: its anchor, its step, its title, what it
// shows, what a refused or stale save shows again, what htmx swaps after a
// save, what is refreshed out of band after any change, and the parts of it
// fetched when first opened. The step pages, the step bar, the print view,
// the links to a section, the refresh after a change, the lazy parts and the
// redirect of old #section links all read this one list, so adding a section
// is one entry.

// reportStep is one page of the report.
type reportStep struct {
	Name  string // in the address: /reports/:id/<Name>; "" is the overview
	Title string // in the step bar and as the page's heading
	Lead  string // one line: what the step is for
}

// reportSteps are the steps in their order.
var reportSteps = []reportStep{
	{Name: "", Title: "Overview", Lead: "The answers, the way through the report and what the exit check still misses."},
	{Name: "contract", Title: "Contract", Lead: "What is tested, on which box, and what counts as success: written and frozen before any result."},
	{Name: "results", Title: "Results", Lead: "The imported benchmark files, the matrix they make, the envelope and admission limit, and the overload test."},
	{Name: "costs", Title: "Costs and quotes", Lead: "What owning the box costs and what the API would cost, each figure with its date and source."},
	{Name: "decision", Title: "Demand and decision", Lead: "The demand scenarios, where owning and buying cross, the fleet, residency and the recommendation."},
	{Name: "evidence", Title: "Evidence", Lead: "Production telemetry, the soak, showback, the public reference rows and the candidates tried."},
	{Name: "review", Title: "Review and history", Lead: "Submit, approve or send back, the comments and every change."},
}

// reportSection is one section of the report.
type reportSection struct {
	Name  string // its anchor on the page
	Step  string // the reportStep it belongs to
	Title string
	// Also are anchors inside the section, or prefixes of them ending in
	// "-" (a row's "candidate-3"), that a link may name.
	Also []string
	// Names are the titles of anchors inside it that are named on their
	// own (the exit check links to them).
	Names map[string]string
	// View is the section as shown; nil for a name that only titles
	// (a comment's "general").
	View func(v reportView) templ.Component
	// Form is the section showing a refused or stale form as typed (a
	// sectionSave's Again when it sets none); nil when it has no form.
	Form func(v reportView, f sectionForm) templ.Component
	// Swap is what htmx gets after a save (a sectionSave's Swap when it
	// sets none); nil redirects to the section.
	Swap func(v reportView) templ.Component
	// Refresh is the section out of band after a change made elsewhere
	// (own names the section the change was made in); nil: not refreshed.
	Refresh func(v reportView, own string) templ.Component
	// RefreshOwn refreshes it even after a change made in it (parts of it
	// that the change's own answer does not swap).
	RefreshOwn bool
	// Parts are its parts fetched when first opened (see lazyPart).
	Parts map[string]lazyPartDef
}

// reportSections are the sections in the order the print view shows them
// (set in init: their components link to sections by this list).
var reportSections []reportSection

func init() { reportSections = sectionList() }

func sectionList() []reportSection {
	return []reportSection{
		{Name: "headline", Step: "", Title: "The answers", RefreshOwn: true,
			View:    func(v reportView) templ.Component { return headlineSection(v, false) },
			Refresh: func(v reportView, _ string) templ.Component { return headlineSection(v, true) }},
		{Name: "path", Step: "", Title: "The way through", RefreshOwn: true,
			View:    func(v reportView) templ.Component { return pathSection(v, false) },
			Refresh: func(v reportView, _ string) templ.Component { return pathSection(v, true) }},
		{Name: "exitcheck", Step: "", Title: "Exit check",
			View:    func(v reportView) templ.Component { return exitCheckSection(v, false) },
			Refresh: func(v reportView, _ string) templ.Component { return exitCheckSection(v, true) }},
		{Name: "contract", Step: "contract", Title: "Test contract",
			View: func(v reportView) templ.Component { return contractSection(v) }},
		{Name: "imports", Step: "results", Title: "Imported results", Also: []string{"import-", "upload-"},
			View: func(v reportView) templ.Component { return importsSection(v.Imports) }},
		{Name: "matrix", Step: "results", Title: "Concurrency matrix", Also: []string{"row-", "matrix-", "observed-", "plan-amend"}, RefreshOwn: true,
			View: func(v reportView) templ.Component { return matrixSection(v, sectionForm{}, false) },
			Refresh: func(v reportView, own string) templ.Component {
				if own == "imports" { // the rows changed: their forms too
					return matrixSection(v, sectionForm{}, true)
				}
				// Otherwise the row forms keep what is typed in them: only the
				// judged parts are swapped.
				parts := []templ.Component{matrixJudgement(v, true)}
				if len(v.Result.Matrix) > 0 {
					parts = append(parts, matrixTable(v, true))
				}
				return templ.Join(parts...)
			},
			Parts: map[string]lazyPartDef{"observed": {may: mayEdit, body: observedPart}}},
		{Name: "envelope", Step: "results", Title: "Envelope", Also: []string{"admission", "admission-", "ceiling"},
			Names:   map[string]string{"admission": "Admission limit"},
			View:    func(v reportView) templ.Component { return envelopeSection(v, sectionForm{}, false) },
			Form:    envelopeFor,
			Swap:    envelopeSwap,
			Refresh: func(v reportView, _ string) templ.Component { return envelopeSection(v, sectionForm{}, true) },
			Parts: map[string]lazyPartDef{"admission": {may: mayEdit, body: func(v reportView, _ string) (templ.Component, bool) {
				return admissionOverrideBody(v, sectionForm{}), true
			}}}},
		{Name: "overload", Step: "results", Title: "Overload test", Also: []string{"overload-"},
			View: func(v reportView) templ.Component { return overloadSection(v, sectionForm{}, false) },
			Form: overloadFor,
			Swap: overloadSwap,
			Parts: map[string]lazyPartDef{"overload": {may: mayEdit, body: func(v reportView, _ string) (templ.Component, bool) {
				return overloadFormBody(v, sectionForm{}), true
			}}}},
		{Name: "costs", Step: "costs", Title: "Costs", Also: []string{"quotes", "exchange-rates", "cost-"},
			Names:   map[string]string{"quotes": "API quotes"},
			View:    func(v reportView) templ.Component { return costsSection(v, moneyForm{}, false) },
			Form:    costsAgain,
			Swap:    costsSwap,
			Refresh: func(v reportView, _ string) templ.Component { return costsSection(v, moneyForm{}, true) },
			Parts: map[string]lazyPartDef{"self-hosted-costs": {may: mayEditCosts, body: func(v reportView, _ string) (templ.Component, bool) {
				return selfHostedFormBody(v, withStoredValues(v, moneyForm{})), true
			}}}},
		{Name: "provider", Step: "costs", Title: "Provider view",
			View:    func(v reportView) templ.Component { return providerSection(v, sectionForm{}, false) },
			Refresh: func(v reportView, _ string) templ.Component { return providerSection(v, sectionForm{}, true) },
			Parts: map[string]lazyPartDef{"provider": {may: mayEditCosts, body: func(v reportView, _ string) (templ.Component, bool) {
				return providerFormBody(v, sectionForm{}), true
			}}}},
		{Name: "scenarios", Step: "decision", Title: "Demand scenarios",
			View:    func(v reportView) templ.Component { return scenariosSection(v, moneyForm{}, false) },
			Form:    scenariosAgain,
			Swap:    scenariosSwap,
			Refresh: func(v reportView, _ string) templ.Component { return scenariosSection(v, moneyForm{}, true) }},
		{Name: "crossover", Step: "decision", Title: "Crossover", RefreshOwn: true,
			View:    func(v reportView) templ.Component { return crossoverSection(v, false) },
			Refresh: func(v reportView, _ string) templ.Component { return crossoverSection(v, true) }},
		{Name: "fleet", Step: "decision", Title: "Fleet",
			View:    func(v reportView) templ.Component { return fleetSection(v, sectionForm{}, false) },
			Refresh: func(v reportView, _ string) templ.Component { return fleetSection(v, sectionForm{}, true) }},
		{Name: "residency", Step: "decision", Title: "Residency", Also: []string{"routes"},
			View:    func(v reportView) templ.Component { return residencySection(v, sectionForm{}, false) },
			Form:    residencyFor,
			Swap:    residencySwap,
			Refresh: func(v reportView, _ string) templ.Component { return residencySection(v, sectionForm{}, true) }},
		{Name: "recommendation", Step: "decision", Title: "Recommendation",
			View:    func(v reportView) templ.Component { return recommendationSection(v, moneyForm{}, false) },
			Form:    recommendationAgain,
			Swap:    recommendationSwap,
			Refresh: func(v reportView, _ string) templ.Component { return recommendationSection(v, moneyForm{}, true) },
			Parts: map[string]lazyPartDef{"recommendation": {may: mayEditCosts, body: func(v reportView, _ string) (templ.Component, bool) {
				return recommendationFormBody(v, withStoredValues(v, moneyForm{})), true
			}}}},
		{Name: "evidence", Step: "evidence", Title: "Operations evidence", Also: []string{"evidence-"},
			Names: map[string]string{"evidence-soak": "Soak and drains", "evidence-telemetry": "GPU telemetry"},
			View:  func(v reportView) templ.Component { return evidenceSection(v, sectionForm{}) },
			Form:  evidenceFor},
		{Name: "reference", Step: "evidence", Title: "Reference rows", Also: []string{"reference-"},
			View:    func(v reportView) templ.Component { return referenceSection(v, sectionForm{}, false) },
			Form:    referenceFor,
			Refresh: func(v reportView, _ string) templ.Component { return referenceJudged(v, true) },
			Parts: map[string]lazyPartDef{
				"reference-import": {may: mayEdit, body: func(v reportView, _ string) (templ.Component, bool) {
					return referenceImportBody(v, sectionForm{}), true
				}},
				"reference-row": {may: mayEdit, body: func(v reportView, _ string) (templ.Component, bool) {
					return referenceRowBody(v, sectionForm{}), true
				}},
			}},
		{Name: "candidates", Step: "evidence", Title: "Candidates", Also: []string{"candidate-"},
			View: func(v reportView) templ.Component { return candidatesSection(v, sectionForm{}, false) },
			Form: candidatesFor,
			Swap: candidatesSwap,
			Refresh: func(v reportView, own string) templ.Component {
				parts := []templ.Component{candidatesJudged(v, true)}
				for _, cd := range v.Candidates {
					parts = append(parts, candidateJudged(v, cd, true))
				}
				return templ.Join(parts...)
			},
			Parts: map[string]lazyPartDef{
				"candidate-new":      {may: mayEdit, body: candidateNewPart},
				"candidate-edit":     {may: mayEdit, body: candidateEditPart},
				"candidate-observed": {may: mayEdit, body: candidateObservedPart},
			}},
		{Name: "review", Step: "review", Title: "Review",
			View: func(v reportView) templ.Component { return reviewBar(v) }},
		{Name: "comments", Step: "review", Title: "Comments",
			View: func(v reportView) templ.Component { return commentsSection(v) }},
		{Name: "history", Step: "review", Title: "History", RefreshOwn: true,
			View: func(v reportView) templ.Component { return historySection(v.R.ID, v.History, v.HistoryTotal, false) },
			Refresh: func(v reportView, _ string) templ.Component {
				return historySection(v.R.ID, v.History, v.HistoryTotal, true)
			}},
		// Names a comment or an exit-check item may be about that are not
		// sections of their own.
		{Name: "general", Step: "", Title: "The report as a whole"},
	}
}

// sectionByName is the section an anchor names: the section itself, or the
// one holding it (its Also).
func sectionByName(anchor string) (reportSection, bool) {
	for _, s := range reportSections {
		if s.Name == anchor {
			return s, true
		}
	}
	for _, s := range reportSections {
		for _, a := range s.Also {
			if a == anchor || (strings.HasSuffix(a, "-") && strings.HasPrefix(anchor, a)) {
				return s, true
			}
		}
	}
	return reportSection{}, false
}

// stepOf is the step an anchor lands on; the overview when it names none.
func stepOf(anchor string) string {
	s, _ := sectionByName(anchor)
	return s.Step
}

// stepByName is the step named name.
func stepByName(name string) (reportStep, bool) {
	for _, st := range reportSteps {
		if st.Name == name {
			return st, true
		}
	}
	return reportStep{}, false
}

// stepURL is the address of a report's step.
func stepURL(reportID int64, step string) string {
	u := "/reports/" + strconv.FormatInt(reportID, 10)
	if step != "" {
		u += "/" + step
	}
	return u
}

// sectionURL is the address of a section (or an anchor in it): its step's
// page at the anchor.
func sectionURL(reportID int64, anchor string) string {
	return stepURL(reportID, stepOf(anchor)) + "#" + anchor
}

// href is the link to an anchor of report v: within the page when it is
// shown there (the print view shows every section), else on its step.
func (v reportView) href(anchor string) templ.SafeURL {
	if v.Print || stepOf(anchor) == v.Step {
		return templ.SafeURL("#" + anchor)
	}
	return templ.SafeURL(sectionURL(v.R.ID, anchor))
}

// sectionTitle names a report section, or an anchor in one, by its anchor.
func sectionTitle(anchor string) string {
	s, ok := sectionByName(anchor)
	switch {
	case !ok:
		return anchor
	case s.Names[anchor] != "":
		return s.Names[anchor]
	}
	return s.Title
}

// sectionsOf are the sections of a step that show.
func sectionsOf(step string) []reportSection {
	var out []reportSection
	for _, s := range reportSections {
		if s.Step == step && s.View != nil {
			out = append(out, s)
		}
	}
	return out
}

// lazyPartByName is a part by its name, of whichever section holds it.
func lazyPartByName(name string) (lazyPartDef, bool) {
	for _, s := range reportSections {
		if p, ok := s.Parts[name]; ok {
			return p, true
		}
	}
	return lazyPartDef{}, false
}

// stepAnchors maps each anchor (and prefix, ending in "-") a link may name
// to its step, for app.js to send an old one-page link (/reports/1#matrix)
// on to its step.
func stepAnchors() string {
	var b strings.Builder
	for _, s := range reportSections {
		if s.Step == "" {
			continue
		}
		for _, a := range append([]string{s.Name}, s.Also...) {
			b.WriteString(a + "=" + s.Step + " ")
		}
	}
	return strings.TrimSpace(b.String())
}

// Lazy part bodies keyed by a row or candidate.

func observedPart(v reportView, key string) (templ.Component, bool) {
	rid, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		return nil, false
	}
	rr, _, ok := v.judgedRow(rid)
	return observedRowBody(v, sectionForm{}, rr, key), ok
}

func candidateNewPart(v reportView, _ string) (templ.Component, bool) {
	return candidateEditForm(v, sectionForm{}, "new", planner.Candidate{}), true
}

func candidateEditPart(v reportView, key string) (templ.Component, bool) {
	for _, cd := range v.Candidates {
		if itoa64(cd.ID) == key {
			return candidateEditForm(v, sectionForm{}, key, cd.Candidate), true
		}
	}
	return nil, false
}

func candidateObservedPart(v reportView, key string) (templ.Component, bool) {
	for _, cd := range v.Candidates {
		if itoa64(cd.ID) == key {
			return candidateObservedBody(v, sectionForm{}, cd), true
		}
	}
	return nil, false
}

// refreshedParts are the sections refreshed after a change made in own,
// out of band: those on the page v shows (every one on the print view)
// with a Refresh, but the one the change was made in, which its own
// answer swaps, unless it is always refreshed (RefreshOwn).
func refreshedParts(v reportView, own string) []templ.Component {
	var out []templ.Component
	for _, s := range reportSections {
		if s.Refresh == nil || (!v.Print && s.Step != v.Step) {
			continue
		}
		if s.Name == own && !s.RefreshOwn {
			continue
		}
		if c := s.Refresh(v, own); c != nil {
			out = append(out, c)
		}
	}
	return out
}

// pageOf sets the page v is shown on from the address of the page a
// request was made from (htmx's HX-Current-URL): the step, or the print
// view; every section, as on the print view, when it names no step.
func (v *reportView) pageOf(current string) {
	v.Step, v.Print = "", true
	u, err := url.Parse(current)
	if err != nil || current == "" {
		return
	}
	v.AllCols = u.Query().Get("cols") == "all" // the matrix's columns as the page shows them
	prefix := "/reports/" + strconv.FormatInt(v.R.ID, 10)
	rest, ok := strings.CutPrefix(u.Path, prefix)
	if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
		return
	}
	rest, _, _ = strings.Cut(strings.TrimPrefix(rest, "/"), "/") // contract/edit: the contract's step
	if _, ok := stepByName(rest); ok {
		v.Step, v.Print = rest, false
	}
}

// matrixAllRowsURL is the matrix with every row (?rows=all) on the page v
// shows it on.
func matrixAllRowsURL(v reportView) string { return matrixURL(v, true, v.AllCols) }

// pageFrom is the page of report id an htmx request was made from (its
// HX-Current-URL, without query or anchor): a step or the print view; the
// step named by fallback when it names none.
func pageFrom(c echo.Context, id int64, fallback string) string {
	v := reportView{}
	v.R.ID = id
	v.pageOf(c.Request().Header.Get("HX-Current-URL"))
	switch {
	case !v.Print:
		return stepURL(id, v.Step)
	case isPrintURL(c.Request().Header.Get("HX-Current-URL")):
		return stepURL(id, printStep)
	}
	return stepURL(id, fallback)
}

func isPrintURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && strings.HasSuffix(p.Path, "/"+printStep)
}
