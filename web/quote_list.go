package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"capplan/planner"
	"capplan/web/store"
	"capplan/web/view"
)

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
	v := view.QuotesView{Quotes: qs, CanEdit: canEditQuotes(currentUser(c)), Flash: takeFlash(c), Today: s.cfg.Now()}
	page, _ := strconv.Atoi(c.QueryParam("page"))
	v.PageQuotes(c.QueryParam("q"), page)
	if !v.CanEdit {
		if v.Keepers, err = s.quoteKeepers(c); err != nil {
			return err
		}
	} else if v.Requests, err = s.store.QuoteRequests(c.Request().Context(), quoteRequestsShown); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, layout(s.page(c, "API quotes"), view.QuotesPage(v)), nil)
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
	v := view.QuotesView{CanEdit: canEditQuotes(currentUser(c)), Edit: &q, Form: view.SectionForm{Form: quoteValues(q)}.Money(), Uses: uses, Flash: takeFlash(c), Today: s.cfg.Now()}
	if !v.CanEdit {
		if v.Keepers, err = s.quoteKeepers(c); err != nil {
			return err
		}
	}
	return s.render(c, http.StatusOK, layout(s.page(c, q.Q.Name+" · API quote"), view.QuotePage(v)), nil)
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
	v := view.QuotesView{CanEdit: true, Edit: editing, Form: view.SectionForm{Form: form, Errs: errs}.Money(), Today: s.cfg.Now()}
	if editing != nil {
		return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, "API quote"), view.QuotePage(v)), nil)
	}
	if v.Quotes, err = s.store.Quotes(ctx); err != nil {
		return err
	}
	return s.render(c, http.StatusUnprocessableEntity, layout(s.page(c, "API quotes"), view.QuotesPage(v)), nil)
}
