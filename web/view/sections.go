package view

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"capplan/planner"
)

// The report is walked in steps, each a page of its own (docs/ARCHITECTURE.md,
// "Pages in the browser"): the overview with the answers, the way through
// and the exit check, then one page per step. Every section of the report
// is one entry of Sections below: its anchor, its step, its title, what it
// shows and what is refreshed out of band after any change. The step
// pages, the step bar, the print view, the links to a section, the
// refresh after a change and the redirect of old #section links all read
// this one list; the app's registry (web/sections.go) adds to an entry
// what its handlers do (the form shown again after a refusal, what a save
// swaps, the parts fetched when first opened), by the same name.

// Section is one section of the report.
type Section struct {
	Name  string // its anchor on the page
	Step  string // the StepDef it belongs to
	Title string // planner.SectionTitle of Name
	// Also are anchors inside the section, or prefixes of them ending in
	// "-" (a row's "candidate-3"), that a link may name.
	Also []string
	// Named are anchors inside it with a title of their own
	// (planner.SectionTitle; the exit check links to them).
	Named []string
	// View is the section as shown; nil for a name that only titles
	// (a comment's "general").
	View func(v Report) templ.Component
	// Refresh is the section out of band after a change made elsewhere
	// (own names the section the change was made in); nil: not refreshed.
	Refresh func(v Report, own string) templ.Component
	// RefreshOwn refreshes it even after a change made in it (parts of it
	// that the change's own answer does not swap).
	RefreshOwn bool
	// NoComment: a comment may not name it (see CommentSections).
	NoComment bool
}

// Sections are the sections in the order the print view shows them
// (set in init: their components link to sections by this list).
var Sections []Section

func init() {
	Sections = sectionList()
	for i := range Sections {
		Sections[i].Title = planner.SectionTitle(Sections[i].Name)
	}
}

func sectionList() []Section {
	return []Section{
		{Name: "headline", Step: "", RefreshOwn: true, NoComment: true,
			View:    func(v Report) templ.Component { return headlineSection(v, false) },
			Refresh: func(v Report, _ string) templ.Component { return headlineSection(v, true) }},
		{Name: "path", Step: "", RefreshOwn: true, NoComment: true,
			View:    func(v Report) templ.Component { return pathSection(v, false) },
			Refresh: func(v Report, _ string) templ.Component { return pathSection(v, true) }},
		{Name: "exitcheck", Step: "",
			View:    func(v Report) templ.Component { return ExitCheckSection(v, false) },
			Refresh: func(v Report, _ string) templ.Component { return ExitCheckSection(v, true) }},
		{Name: "contract", Step: "contract",
			View: func(v Report) templ.Component { return contractSection(v) }},
		{Name: "imports", Step: "results", Also: []string{"import-", "upload-"},
			View: func(v Report) templ.Component { return importsSection(v.Imports) }},
		{Name: "matrix", Step: "results", Also: []string{"row-", "matrix-", "observed-", "plan-amend"}, RefreshOwn: true,
			View: func(v Report) templ.Component { return MatrixSection(v, SectionForm{}, false) },
			Refresh: func(v Report, own string) templ.Component {
				if own == "imports" { // the rows changed: their forms too
					return MatrixSection(v, SectionForm{}, true)
				}
				// Otherwise the row forms keep what is typed in them: only the
				// judged parts are swapped.
				parts := []templ.Component{matrixJudgement(v, true)}
				if len(v.Result.Matrix) > 0 {
					parts = append(parts, matrixTable(v, true))
				}
				return templ.Join(parts...)
			}},
		{Name: "envelope", Step: "results", Also: []string{"admission", "admission-", "ceiling"},
			Named:   []string{"admission"},
			View:    func(v Report) templ.Component { return EnvelopeSection(v, SectionForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return EnvelopeSection(v, SectionForm{}, true) }},
		{Name: "overload", Step: "results", Also: []string{"overload-"},
			View: func(v Report) templ.Component { return OverloadSection(v, SectionForm{}, false) }},
		{Name: "costs", Step: "costs", Also: []string{"quotes", "exchange-rates", "cost-"},
			Named:   []string{"quotes"},
			View:    func(v Report) templ.Component { return CostsSection(v, MoneyForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return CostsSection(v, MoneyForm{}, true) }},
		{Name: "provider", Step: "costs",
			View:    func(v Report) templ.Component { return ProviderSection(v, SectionForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return ProviderSection(v, SectionForm{}, true) }},
		{Name: "scenarios", Step: "decision",
			View:    func(v Report) templ.Component { return ScenariosSection(v, MoneyForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return ScenariosSection(v, MoneyForm{}, true) }},
		{Name: "crossover", Step: "decision", RefreshOwn: true,
			View:    func(v Report) templ.Component { return crossoverSection(v, false) },
			Refresh: func(v Report, _ string) templ.Component { return crossoverSection(v, true) }},
		{Name: "fleet", Step: "decision",
			View:    func(v Report) templ.Component { return FleetSection(v, SectionForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return FleetSection(v, SectionForm{}, true) }},
		{Name: "residency", Step: "decision", Also: []string{"routes"},
			View:    func(v Report) templ.Component { return ResidencySection(v, SectionForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return ResidencySection(v, SectionForm{}, true) }},
		{Name: "recommendation", Step: "decision",
			View:    func(v Report) templ.Component { return RecommendationSection(v, MoneyForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return RecommendationSection(v, MoneyForm{}, true) }},
		{Name: "evidence", Step: "evidence", Also: []string{"evidence-"},
			Named: []string{"evidence-soak", "evidence-telemetry"},
			View:  func(v Report) templ.Component { return EvidenceSection(v, SectionForm{}) }},
		{Name: "reference", Step: "evidence", Also: []string{"reference-"},
			View:    func(v Report) templ.Component { return ReferenceSection(v, SectionForm{}, false) },
			Refresh: func(v Report, _ string) templ.Component { return referenceJudged(v, true) }},
		{Name: "candidates", Step: "evidence", Also: []string{"candidate-"},
			View: func(v Report) templ.Component { return CandidatesSection(v, SectionForm{}, false) },
			Refresh: func(v Report, own string) templ.Component {
				parts := []templ.Component{candidatesJudged(v, true)}
				for _, cd := range v.Candidates {
					parts = append(parts, candidateJudged(v, cd, true))
				}
				return templ.Join(parts...)
			}},
		{Name: "review", Step: "review", NoComment: true,
			View: func(v Report) templ.Component { return ReviewBar(v) }},
		{Name: "comments", Step: "review", NoComment: true,
			View: func(v Report) templ.Component { return commentsSection(v) }},
		{Name: "history", Step: "review", RefreshOwn: true, NoComment: true,
			View: func(v Report) templ.Component { return HistorySection(v.R.ID, v.History, v.HistoryTotal, false) },
			Refresh: func(v Report, _ string) templ.Component {
				return HistorySection(v.R.ID, v.History, v.HistoryTotal, true)
			}},
		// Names a comment or an exit-check item may be about that are not
		// sections of their own.
		{Name: "general", Step: ""},
	}
}

// SectionByName is the section an anchor names: the section itself, or the
// one holding it (its Also).
func SectionByName(anchor string) (Section, bool) {
	for _, s := range Sections {
		if s.Name == anchor {
			return s, true
		}
	}
	for _, s := range Sections {
		for _, a := range s.Also {
			if a == anchor || (strings.HasSuffix(a, "-") && strings.HasPrefix(anchor, a)) {
				return s, true
			}
		}
	}
	return Section{}, false
}

// stepOf is the step an anchor lands on; the overview when it names none.
func stepOf(anchor string) string {
	s, _ := SectionByName(anchor)
	return s.Step
}

// StepByName is the step named name.
func StepByName(name string) (StepDef, bool) {
	for _, st := range Steps {
		if st.Name == name {
			return st, true
		}
	}
	return StepDef{}, false
}

// StepURL is the address of a report's step.
func StepURL(reportID int64, step string) string {
	u := "/reports/" + strconv.FormatInt(reportID, 10)
	if step != "" {
		u += "/" + step
	}
	return u
}

// SectionURL is the address of a section (or an anchor in it): its step's
// page at the anchor.
func SectionURL(reportID int64, anchor string) string {
	return StepURL(reportID, stepOf(anchor)) + "#" + anchor
}

// href is the link to an anchor of report v: within the page when it is
// shown there (the print view shows every section), else on its step.
func (v Report) href(anchor string) templ.SafeURL {
	if v.Print || stepOf(anchor) == v.Step {
		return templ.SafeURL("#" + anchor)
	}
	return templ.SafeURL(SectionURL(v.R.ID, anchor))
}

// sectionTitle names a report section, or an anchor in one, by its anchor.
func sectionTitle(anchor string) string {
	s, ok := SectionByName(anchor)
	switch {
	case !ok:
		return anchor
	case slices.Contains(s.Named, anchor):
		return planner.SectionTitle(anchor)
	}
	return s.Title
}

// sectionsOf are the sections of a step that show.
func sectionsOf(step string) []Section {
	var out []Section
	for _, s := range Sections {
		if s.Step == step && s.View != nil {
			out = append(out, s)
		}
	}
	return out
}

// stepAnchors maps each anchor (and prefix, ending in "-") a link may name
// to its step, for app.js to send an old one-page link (/reports/1#matrix)
// on to its step.
func stepAnchors() string {
	var b strings.Builder
	for _, s := range Sections {
		if s.Step == "" {
			continue
		}
		for _, a := range append([]string{s.Name}, s.Also...) {
			b.WriteString(a + "=" + s.Step + " ")
		}
	}
	return strings.TrimSpace(b.String())
}

// refreshedParts are the sections refreshed after a change made in own,
// out of band: those on the page v shows (every one on the print view)
// with a Refresh, but the one the change was made in, which its own
// answer swaps, unless it is always refreshed (RefreshOwn).
func refreshedParts(v Report, own string) []templ.Component {
	var out []templ.Component
	for _, s := range Sections {
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

// PageOf sets the page v is shown on from the address of the page a
// request was made from (htmx's HX-Current-URL): the step, or the print
// view; every section, as on the print view, when it names no step.
func (v *Report) PageOf(current string) {
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
	if _, ok := StepByName(rest); ok {
		v.Step, v.Print = rest, false
	}
}

// matrixAllRowsURL is the matrix with every row (?rows=all) on the page v
// shows it on.
func matrixAllRowsURL(v Report) string { return matrixURL(v, true, v.AllCols) }
