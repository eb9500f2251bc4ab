package planner

import (
	"fmt"
	"strings"
	"time"
)

// recommendationWarnings questions a decision to keep self-hosting that the
// report does not support: a non-financial gate that fails, or an API quote
// cheaper per 1,000 successful requests in the expected scenario. They warn;
// the lead may have reasons the numbers do not hold.
func recommendationWarnings(rec *Recommendation, scenarios []ScenarioResult, currency string) []string {
	if rec == nil || rec.Decision != "keep" {
		return nil
	}
	var ws []string
	for _, g := range rec.Gates {
		if !g.Pass {
			w := fmt.Sprintf("the decision is to keep self-hosting, but the %s gate fails", strings.ToLower(g.Name))
			if n := strings.TrimSpace(g.Note); n != "" {
				w += ": " + n
			}
			ws = append(ws, w)
		}
	}
	for _, s := range scenarios {
		if s.Scenario.Name != "expected" {
			continue
		}
		var self *OptionCost
		for i, o := range s.Options {
			if o.Kind == "self-hosted" {
				self = &s.Options[i]
			}
		}
		if self == nil || self.CostPer1000 == nil {
			break
		}
		for _, o := range s.Options {
			if o.Kind == "api" && o.CostPer1000 != nil && o.CostPer1000.Exact.LessThan(self.CostPer1000.Exact) {
				ws = append(ws, fmt.Sprintf("the decision is to keep self-hosting, but in the expected scenario (%s requests a month) %s costs %s per 1,000 requests, less than self-hosting's %s",
					groupDigits(s.Scenario.MonthlyRequests), o.Option, amountText(o.CostPer1000.Display(), currency), amountText(self.CostPer1000.Display(), currency)))
			}
		}
		break
	}
	return ws
}

// recommendationDates says which of the review date and the expiry are
// already past on the report date; nothing when either date is unknown.
func recommendationDates(rec *Recommendation, asOf string) []string {
	a, err := time.Parse(DateLayout, asOf)
	if rec == nil || err != nil {
		return nil
	}
	var out []string
	if d, err := time.Parse(DateLayout, rec.ReviewDate); err == nil && d.Before(a) {
		out = append(out, fmt.Sprintf("the review date %s is already past (the report is as of %s): set the next review", rec.ReviewDate, asOf))
	}
	if d, err := time.Parse(DateLayout, rec.Expiry); err == nil && d.Before(a) {
		out = append(out, fmt.Sprintf("the recommendation expired on %s (the report is as of %s): review it and set a new expiry", rec.Expiry, asOf))
	}
	return out
}

// amountText writes an amount with its currency when there is one.
func amountText(v, currency string) string {
	if currency == "" {
		return v
	}
	return v + " " + currency
}
