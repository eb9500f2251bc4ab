// Package reports is capplan's application services: what a report is
// made of and what can be done with one, without HTTP. It reads a report
// and everything planner.Compute needs in one read transaction, imports
// batches of result files, writes the XLSX export, seeds the demo and
// takes the review steps. The web handlers and the command line both call
// it; it imports neither Echo nor templ (a test holds it so).
package reports

import (
	"capplan/planner"

	"time"

	"capplan/web/store"
)

// Service holds what the services need: the store, the folder of raw
// result files and the clock.
type Service struct {
	Store   *store.Store
	DataDir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	memo *memo[memoKey, *computed] // computed reports by version; nil: none
}

// New returns the services over st, keeping raw result files in dataDir.
func New(st *store.Store, dataDir string, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{Store: st, DataDir: dataDir, Now: now,
		memo: newMemo[memoKey, *computed](MemoBytes, MemoEntries, supersedes)}
}

func (s *Service) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// AsOf is the day, by the service's clock, that a report is computed as
// of (quotes expire, evidence ages): a view kept across calls is only good
// for the same day.
func (s *Service) AsOf() string { return s.now().UTC().Format("2006-01-02") }

// Report sections stored as JSON documents of the planner's input types.
// Each name is also the section's concurrency key: a save is refused as
// stale only when the same section changed meanwhile.
const (
	SecAdmission      = "admission"            // planner.AdmissionInput
	SecOverload       = "overload"             // planner.OverloadTest
	SecRoutes         = "routes"               // []planner.Route
	SecSelfHosted     = "self_hosted"          // planner.SelfHostedCosts
	SecScenarios      = "scenarios"            // []planner.Scenario
	SecRecommendation = "recommendation"       // planner.Recommendation
	SecSettings       = "settings"             // Settings
	SecTelemetry      = "telemetry"            // planner.TelemetryInput
	SecSoak           = "soak"                 // planner.Soak
	SecShowback       = "showback"             // planner.ShowbackUsage
	SecDemand         = "demand"               // planner.Demand
	SecLoosening      = "loosening_acceptance" // planner.LooseningAcceptance
	SecAmendment      = "amendment_acceptance" // planner.AmendmentAcceptance
	SecProvider       = "provider"             // *planner.ProviderInputs
	SecFleet          = "fleet"                // *planner.FleetInputs
	SecReference      = "reference"            // *planner.ReferenceInput
)

// Settings are the report-wide choices for the money side.
type Settings struct {
	Currency       string `json:"currency"`
	TokenBasis     string `json:"token_basis"`
	MaxBoxes       int    `json:"max_boxes"`
	StaleAfterDays int    `json:"stale_after_days"`
	// ExchangeRates convert amounts in other currencies into Currency.
	ExchangeRates []planner.ExchangeRate `json:"exchange_rates,omitempty"`
	// TaxBasis is planner.TaxNet or planner.TaxGross ("" is net).
	TaxBasis string `json:"tax_basis,omitempty"`
}
