package web

import (
	"capplan/planner"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
)

// quotesView is the API quote library page: every quote, and the form that
// adds one (or edits the one in Edit).
type quotesView struct {
	Quotes  []store.Quote
	CanEdit bool
	Edit    *store.Quote // the quote being edited; nil for a new one
	Form    moneyForm
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
	ImportErrs formErrors
	// The library's list is searched and paged (pageQuotes): Total quotes
	// in all, Matching the search Query, Page of Pages shown.
	Query                        string
	Total, Matching, Page, Pages int
}

// quotesPerPage is how many quotes a page of the library lists: a
// catalogue of 49,000 models keeps the page within a few hundred KB.
const quotesPerPage = 100

// pageQuotes keeps page (1-based) of the quotes whose name, provider or
// model holds query (any case), in the library's order.
func (v *quotesView) pageQuotes(query string, page int) {
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
	v.Pages = max((len(match)+quotesPerPage-1)/quotesPerPage, 1)
	v.Page = min(max(page, 1), v.Pages)
	from := (v.Page - 1) * quotesPerPage
	v.Quotes = match[from:min(from+quotesPerPage, len(match))]
}

// quotesPageURL is the address of page n of the library for query.
func quotesPageURL(query string, n int) string {
	u := fmt.Sprintf("/quotes?page=%d", n)
	if query != "" {
		u += "&q=" + url.QueryEscape(query)
	}
	return u
}

// quoteRequestsShown bounds the requests the library page lists.
const quoteRequestsShown = 20

// quoteKeepers are the people who may add and change library quotes:
// finance first, then admins, by name.
func (s *Server) quoteKeepers(c echo.Context) ([]string, error) {
	us, err := s.store.Users(c.Request().Context())
	if err != nil {
		return nil, err
	}
	var fin, adm []string
	for _, u := range us {
		switch u.Role {
		case store.RoleFinance:
			fin = append(fin, u.Display())
		case store.RoleAdmin:
			adm = append(adm, u.Display())
		}
	}
	return append(fin, adm...), nil
}

func canEditQuotes(u *store.User) bool {
	return u != nil && (u.Role == store.RoleFinance || u.Role == store.RoleAdmin)
}

func (s *Server) quoteList(c echo.Context) error {
	qs, err := s.store.Quotes(c.Request().Context())
	if err != nil {
		return err
	}
	v := quotesView{Quotes: qs, CanEdit: canEditQuotes(currentUser(c)), Flash: takeFlash(c), Today: s.cfg.Now()}
	page, _ := strconv.Atoi(c.QueryParam("page"))
	v.pageQuotes(c.QueryParam("q"), page)
	if !v.CanEdit {
		if v.Keepers, err = s.quoteKeepers(c); err != nil {
			return err
		}
	} else if v.Requests, err = s.store.QuoteRequests(c.Request().Context(), quoteRequestsShown); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, layout(s.page(c, "API quotes"), quotesPage(v)), nil)
}

func (s *Server) quoteShow(c echo.Context) error {
	qid, err := idParam(c, "qid")
	if err != nil {
		return err
	}
	q, err := s.store.QuoteByID(c.Request().Context(), qid)
	if err != nil {
		return err
	}
	uses, err := s.store.QuoteReports(c.Request().Context(), qid)
	if err != nil {
		return err
	}
	v := quotesView{CanEdit: canEditQuotes(currentUser(c)), Edit: &q, Form: sectionForm{Form: quoteValues(q)}.money(), Uses: uses, Flash: takeFlash(c), Today: s.cfg.Now()}
	if !v.CanEdit {
		if v.Keepers, err = s.quoteKeepers(c); err != nil {
			return err
		}
	}
	return s.render(c, http.StatusOK, layout(s.page(c, q.Q.Name+" · API quote"), quotePage(v)), nil)
}

// quoteSave creates a quote (POST /quotes) or replaces one (POST
// /quotes/:qid); finance and admins only.
func (s *Server) quoteSave(c echo.Context) error {
	ctx := c.Request().Context()
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	q, errs := readQuoteForm(form)
	if _, seen := errs["evidence_date"]; !seen && q.EvidenceDate != "" {
		// A quote dated after today is refused, naming its date
		// (docs/method.md, "Dated evidence").
		mergeFieldErrors(errs, planner.FutureEvidence(s.svc.AsOf(), map[string]*planner.Figure{"quote": {EvidenceDate: q.EvidenceDate}}))
		if msg, ok := errs["quote.evidence_date"]; ok {
			delete(errs, "quote.evidence_date")
			errs["evidence_date"] = msg
		}
	}
	var editing *store.Quote
	if c.Param("qid") != "" {
		qid, err := idParam(c, "qid")
		if err != nil {
			return err
		}
		prev, err := s.store.QuoteByID(ctx, qid)
		if err != nil {
			return err
		}
		editing, q.ID = &prev, qid
	}
	if len(errs) == 0 {
		id, err := s.store.SaveQuote(ctx, currentUser(c).ID, q)
		if err == nil {
			msg := "Quote “" + q.Q.Name + "” added to the library."
			if editing != nil {
				msg = "Quote “" + q.Q.Name + "” saved; every draft report using it now computes from these figures."
			}
			return redirectFlash(c, fmt.Sprintf("/quotes#quote-%d", id), msg)
		}
		var ie *store.InputError
		switch {
		case errors.Is(err, store.ErrExists):
			errs["quote.name"] = "another quote already has this name"
		case errors.As(err, &ie):
			errs["quote."+ie.Field] = ie.Msg
		default:
			return err
		}
	}
	v := quotesView{CanEdit: true, Edit: editing, Form: sectionForm{Form: form, Errs: errs}.money(), Today: s.cfg.Now()}
	if editing != nil {
		return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, "API quote"), quotePage(v)), nil)
	}
	if v.Quotes, err = s.store.Quotes(ctx); err != nil {
		return err
	}
	return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, "API quotes"), quotesPage(v)), nil)
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
