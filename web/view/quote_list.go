package view

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"capplan/web/store"
)

// QuotesView is the API quote library page: every quote, and the form that
// adds one (or edits the one in Edit).
type QuotesView struct {
	Quotes  []store.Quote
	CanEdit bool
	Edit    *store.Quote // the quote being edited; nil for a new one
	Form    MoneyForm
	// Uses are the reports using the quote being shown.
	Uses []store.QuoteUse
	// Flash confirms the save just made.
	Flash string
	// Keepers name who adds and changes quotes (finance, then admins),
	// shown to those who may not.
	Keepers []string
	// Requests are the reports' open requests for a quote, shown to
	// those who add them.
	Requests []store.QuoteRequest
	// Today dates the catalogue quotes' ages; ImportErrs are the
	// catalogue upload's refusal, by field.
	Today      time.Time
	ImportErrs FormErrors
	// The library's list is searched and paged (pageQuotes): Total quotes
	// in all, Matching the search Query, Page of Pages shown.
	Query                        string
	Total, Matching, Page, Pages int
}

// QuotesPerPage is how many quotes a page of the library lists: a
// catalogue of 49,000 models keeps the page within a few hundred KB.
const QuotesPerPage = 100

// quotesPageURL is the address of page n of the library for query.
func quotesPageURL(query string, n int) string {
	u := fmt.Sprintf("/quotes?page=%d", n)
	if query != "" {
		u += "&q=" + url.QueryEscape(query)
	}
	return u
}

// libraryQuote finds the library record of an attached quote by name.
func libraryQuote(qs []store.Quote, name string) *store.Quote {
	for i := range qs {
		if qs[i].Q.Name == name {
			return &qs[i]
		}
	}
	return nil
}

// unattached lists the library quotes not yet attached.
func unattached(lib, attached []store.Quote) []store.Quote {
	var out []store.Quote
	for _, q := range lib {
		if libraryQuote(attached, q.Q.Name) == nil {
			out = append(out, q)
		}
	}
	return out
}

// PageQuotes keeps page (1-based) of the quotes whose name, provider or
// model holds query (any case), in the library's order.
func (v *QuotesView) PageQuotes(query string, page int) {
	v.Total, v.Query = len(v.Quotes), strings.TrimSpace(query)
	q := strings.ToLower(v.Query)
	match := v.Quotes
	if q != "" {
		match = nil
		for _, x := range v.Quotes {
			if strings.Contains(strings.ToLower(x.Q.Name+" "+x.Q.Provider+" "+x.Q.Model), q) {
				match = append(match, x)
			}
		}
	}
	v.Matching = len(match)
	v.Pages = max((len(match)+QuotesPerPage-1)/QuotesPerPage, 1)
	v.Page = min(max(page, 1), v.Pages)
	from := (v.Page - 1) * QuotesPerPage
	v.Quotes = match[from:min(from+QuotesPerPage, len(match))]
}
