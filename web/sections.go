package web

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
)

// The sections of the report, their steps, titles and views are one list
// in web/view (view.Sections, docs/ARCHITECTURE.md "Pages in the browser").
// What the app does with a section beside showing it is here, by the
// section's name: the form shown again after a refused or stale save, what
// htmx swaps after a save and the parts fetched when first opened. The
// section save pipeline and the lazy parts read this list; a new section
// is one entry there and, when it has a form, one here.

// sectionHandling is what the app does with a section of the report.
type sectionHandling struct {
	// Form is the section showing a refused or stale form as typed (a
	// sectionSave's Again when it sets none); nil when it has no form.
	Form func(v view.Report, f view.SectionForm) templ.Component
	// Swap is what htmx gets after a save (a sectionSave's Swap when it
	// sets none); nil redirects to the section.
	Swap func(v view.Report) templ.Component
	// Parts are its parts fetched when first opened (see lazyPart).
	Parts map[string]lazyPartDef
}

// reportSection is a section of the report (view.Section) with what the
// app does with it.
type reportSection struct {
	view.Section
	sectionHandling
}

// sectionHandlers are the sections' handling by their names (set in init:
// their parts render components that link to sections).
var sectionHandlers map[string]sectionHandling

func init() {
	sectionHandlers = sectionHandlerList()
	for name := range sectionHandlers {
		if s, ok := view.SectionByName(name); !ok || s.Name != name {
			panic("web: sectionHandlers names no section of view.Sections: " + name)
		}
	}
}

func sectionHandlerList() map[string]sectionHandling {
	return map[string]sectionHandling{
		"matrix": {Parts: map[string]lazyPartDef{"observed": {may: mayEdit, body: observedPart}}},
		"envelope": {Form: envelopeFor, Swap: view.EnvelopeSwap,
			Parts: map[string]lazyPartDef{"admission": {may: mayEdit, body: func(v view.Report, _ string) (templ.Component, bool) {
				return view.AdmissionOverrideBody(v, view.SectionForm{}), true
			}}}},
		"overload": {Form: overloadFor, Swap: view.OverloadSwap,
			Parts: map[string]lazyPartDef{"overload": {may: mayEdit, body: func(v view.Report, _ string) (templ.Component, bool) {
				return view.OverloadFormBody(v, view.SectionForm{}), true
			}}}},
		"costs": {Form: costsAgain, Swap: costsSwap,
			Parts: map[string]lazyPartDef{"self-hosted-costs": {may: mayEditCosts, body: func(v view.Report, _ string) (templ.Component, bool) {
				return view.SelfHostedFormBody(v, view.WithStoredValues(v, view.MoneyForm{})), true
			}}}},
		"provider": {Parts: map[string]lazyPartDef{"provider": {may: mayEditCosts, body: func(v view.Report, _ string) (templ.Component, bool) {
			return view.ProviderFormBody(v, view.SectionForm{}), true
		}}}},
		"scenarios": {Form: scenariosAgain, Swap: scenariosSwap},
		"residency": {Form: residencyFor, Swap: view.ResidencySwap},
		"recommendation": {Form: recommendationAgain, Swap: recommendationSwap,
			Parts: map[string]lazyPartDef{"recommendation": {may: mayEditCosts, body: func(v view.Report, _ string) (templ.Component, bool) {
				return view.RecommendationFormBody(v, view.WithStoredValues(v, view.MoneyForm{})), true
			}}}},
		"evidence": {Form: evidenceFor},
		"reference": {Form: referenceFor,
			Parts: map[string]lazyPartDef{
				"reference-import": {may: mayEdit, body: func(v view.Report, _ string) (templ.Component, bool) {
					return view.ReferenceImportBody(v, view.SectionForm{}), true
				}},
				"reference-row": {may: mayEdit, body: func(v view.Report, _ string) (templ.Component, bool) {
					return view.ReferenceRowBody(v, view.SectionForm{}), true
				}},
			}},
		"candidates": {Form: candidatesFor, Swap: view.CandidatesSwap,
			Parts: map[string]lazyPartDef{
				"candidate-new":      {may: mayEdit, body: candidateNewPart},
				"candidate-edit":     {may: mayEdit, body: candidateEditPart},
				"candidate-observed": {may: mayEdit, body: candidateObservedPart},
			}},
	}
}

// sectionByName is the section an anchor names (view.SectionByName) with
// its handling.
func sectionByName(anchor string) (reportSection, bool) {
	s, ok := view.SectionByName(anchor)
	return reportSection{s, sectionHandlers[s.Name]}, ok
}

// lazyPartByName is a part by its name, of whichever section holds it.
func lazyPartByName(name string) (lazyPartDef, bool) {
	for _, s := range sectionHandlers {
		if p, ok := s.Parts[name]; ok {
			return p, true
		}
	}
	return lazyPartDef{}, false
}

// Lazy part bodies keyed by a row or candidate.

func observedPart(v view.Report, key string) (templ.Component, bool) {
	rid, err := strconv.ParseInt(key, 10, 64)
	if err != nil {
		return nil, false
	}
	rr, _, ok := v.JudgedRow(rid)
	return view.ObservedRowBody(v, view.SectionForm{}, rr, key), ok
}

func candidateNewPart(v view.Report, _ string) (templ.Component, bool) {
	return view.CandidateEditForm(v, view.SectionForm{}, "new", planner.Candidate{}), true
}

func candidateEditPart(v view.Report, key string) (templ.Component, bool) {
	cd, ok := candidateByKey(v, key)
	return view.CandidateEditForm(v, view.SectionForm{}, key, cd.Candidate), ok
}

func candidateObservedPart(v view.Report, key string) (templ.Component, bool) {
	cd, ok := candidateByKey(v, key)
	return view.CandidateObservedBody(v, view.SectionForm{}, cd), ok
}

// candidateByKey is the stored candidate a part's key (its id) names.
func candidateByKey(v view.Report, key string) (store.Candidate, bool) {
	for _, cd := range v.Candidates {
		if strconv.FormatInt(cd.ID, 10) == key {
			return cd, true
		}
	}
	return store.Candidate{}, false
}

// pageFrom is the page of report id an htmx request was made from (its
// HX-Current-URL, without query or anchor): a step or the print view; the
// step named by fallback when it names none.
func pageFrom(c echo.Context, id int64, fallback string) string {
	v := view.Report{}
	v.R.ID = id
	v.PageOf(c.Request().Header.Get("HX-Current-URL"))
	switch {
	case !v.Print:
		return view.StepURL(id, v.Step)
	case isPrintURL(c.Request().Header.Get("HX-Current-URL")):
		return view.StepURL(id, view.PrintStep)
	}
	return view.StepURL(id, fallback)
}

func isPrintURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && strings.HasSuffix(p.Path, "/"+view.PrintStep)
}
