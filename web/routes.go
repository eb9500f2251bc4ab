package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"capplan/web/store"
	"capplan/web/view"
)

// The roles, short.
var (
	admin    = store.RoleAdmin
	lead     = store.RoleLead
	reviewer = store.RoleReviewer
	finance  = store.RoleFinance
)

// routes is the table of contents of the app.
func (s *Server) routes(e *echo.Echo) {
	e.Use(s.observe) // request id, JSON log line, latency metric
	e.Use(s.recoverPanics)
	e.Use(securityHeaders)

	// Assets, embedded; the URLs carry a content checksum, so cache for ever.
	e.GET("/static/*", echo.WrapHandler(newAssets()))
	e.GET("/favicon.ico", s.favicon)
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET("/readyz", s.readyz)
	e.GET("/metrics", s.metricsEndpoint())

	g := e.Group("", s.loadSession, s.noteOwnWrites)
	anyone := requireRole()

	// Sessions
	g.GET("/login", s.loginForm)
	g.POST("/login", s.login)
	g.POST("/logout", s.logout, anyone)
	g.GET("/glossary", s.glossaryShow)

	// Reports
	g.GET("/", func(c echo.Context) error { return c.Redirect(http.StatusSeeOther, "/reports") }, anyone)
	g.GET("/reports", s.reportList, anyone)
	g.GET("/reports/new", s.reportNewForm, requireRole(lead, admin))
	g.POST("/reports", s.reportCreate, requireRole(lead, admin))
	g.GET("/reports/:id", s.reportShow, anyone)
	g.GET("/reports/:id/history", s.reportHistory, anyone)
	g.GET("/reports/:id/exitcheck", s.reportExitCheck, anyone)
	g.GET("/reports/:id/part/:name", s.reportPart, anyone)
	// The report's steps, each a page, and the whole report for print
	for _, st := range view.Steps {
		if st.Name != "" {
			g.GET("/reports/:id/"+st.Name, s.reportStepShow(st.Name), anyone)
		}
	}
	g.GET("/reports/:id/"+view.PrintStep, s.reportStepShow(view.PrintStep), anyone)
	g.GET("/reports/:id/section/:name", s.reportSectionShow, anyone)
	g.POST("/reports/:id/title", s.reportRename, requireRole(lead, admin))
	g.POST("/reports/:id/editors", s.reportEditors, requireRole(lead, admin))

	// Test contract
	g.GET("/reports/:id/contract/edit", s.contractEdit, requireRole(lead, admin))
	g.POST("/reports/:id/contract", s.contractSave, requireRole(lead, admin))
	g.POST("/reports/:id/freeze", s.contractFreeze, requireRole(lead, admin))
	g.POST("/reports/:id/contract/rows", s.planRowsAmend, requireRole(lead, admin))

	// Results: imports, matrix rows
	g.GET("/reports/:id/imports", s.importList, anyone)
	g.POST("/reports/:id/imports", s.importUpload, requireRole(lead, admin))
	g.POST("/reports/:id/imports/:iid/remove", s.importRemove, requireRole(lead, admin))
	g.GET("/reports/:id/imports/:iid/file", s.importFile, anyone)
	g.GET("/reports/:id/rows/:rid/provenance", s.rowProvenance, anyone)

	// Envelope, admission, overload test, candidates, residency
	g.POST("/reports/:id/rows/:rid/observed", s.rowObserved, requireRole(lead, admin))
	g.POST("/reports/:id/admission", s.admissionSave, requireRole(lead, admin))
	g.POST("/reports/:id/overload", s.overloadSave, requireRole(lead, admin))
	g.POST("/reports/:id/candidates", s.candidateAdd, requireRole(lead, admin))
	g.POST("/reports/:id/candidates/:cid", s.candidateEdit, requireRole(lead, admin))
	g.POST("/reports/:id/candidates/:cid/remove", s.candidateRemove, requireRole(lead, admin))
	g.POST("/reports/:id/candidates/:cid/imports", s.candidateImport, requireRole(lead, admin))
	g.POST("/reports/:id/residency", s.residencySave, requireRole(lead, admin))
	g.GET("/reports/:id/matrix.csv", s.reportMatrixCSV, anyone)

	// Operations evidence: GPU telemetry, soak and drains, showback, production demand
	g.POST("/reports/:id/evidence/demand/accept", s.demandAccept, requireRole(lead, admin))
	g.POST("/reports/:id/evidence/:kind", s.evidenceSave, requireRole(lead, admin))
	g.POST("/reports/:id/evidence/:kind/remove", s.evidenceRemove, requireRole(lead, admin))
	// Reference rows: the public frontier, never evidence
	g.POST("/reports/:id/reference", s.referenceSave, requireRole(lead, admin))
	g.POST("/reports/:id/reference/row", s.referenceRowSave, requireRole(lead, admin))
	g.POST("/reports/:id/reference/remove", s.referenceRemove, requireRole(lead, admin))

	// Side by side: 2 to 4 reports or candidates, a shareable URL and a workbook sheet
	g.GET("/compare", s.compareShow, anyone)
	g.GET("/compare.xlsx", s.compareXLSX, anyone)

	// Costs, quotes, scenarios, crossover, recommendation
	g.GET("/quotes", s.quoteList, anyone)
	g.POST("/quotes", s.quoteSave, requireRole(finance, admin))
	g.POST("/quotes/import", s.quoteImport, requireRole(finance, admin))
	g.GET("/quotes/imports/:iid", s.quoteImportShow, anyone)
	g.GET("/quotes/:qid", s.quoteShow, anyone)
	g.POST("/quotes/:qid", s.quoteSave, requireRole(finance, admin))
	g.POST("/reports/:id/costs/settings", s.costSettingsSave, requireRole(lead, admin, finance))
	g.POST("/reports/:id/costs", s.costSelfHostedSave, requireRole(lead, admin, finance))
	g.POST("/reports/:id/quotes", s.quoteAttach, requireRole(lead, admin, finance))
	g.POST("/reports/:id/quotes/:qid/detach", s.quoteDetach, requireRole(lead, admin, finance))
	g.POST("/reports/:id/scenarios", s.scenariosSave, requireRole(lead, admin, finance))
	g.POST("/reports/:id/provider", s.providerSave, requireRole(lead, admin, finance))
	g.POST("/reports/:id/fleet", s.fleetSave, requireRole(lead, admin, finance))
	g.POST("/reports/:id/recommendation", s.recommendationSave, requireRole(lead, admin))

	// Exit check, review, exports
	g.POST("/reports/:id/submit", s.reportSubmit, requireRole(lead, admin))
	g.POST("/reports/:id/withdraw", s.reportWithdraw, requireRole(lead, admin))
	g.POST("/reports/:id/approve", s.reportApprove, requireRole(reviewer, admin))
	g.POST("/reports/:id/loosening/accept", s.reportAcceptLoosening, requireRole(reviewer, admin))
	g.POST("/reports/:id/amendment/accept", s.reportAcceptAmendment, requireRole(reviewer, admin))
	g.POST("/reports/:id/send-back", s.reportSendBack, requireRole(reviewer, admin))
	g.POST("/reports/:id/revise", s.reportRevise, requireRole(lead, admin))
	g.POST("/reports/:id/comments", s.reportComment, anyone)
	g.GET("/reports/:id/export.xlsx", s.reportExportXLSX, anyone)
	g.GET("/reports/:id/showback.focus.csv", s.reportShowbackFOCUS, anyone)

	// HTTP API (personal tokens)
	api := e.Group("/api/v1", s.apiToken)
	api.POST("/reports/:id/results", s.apiResults)
	api.POST("/reports/:id/reference", s.apiReference)
	api.GET("/reports/:id", s.apiReportShow)
	api.POST("/quotes/import", s.apiQuoteImport)
	api.GET("/reports/:id/showback.focus.csv", s.reportShowbackFOCUS)

	// People and accounts
	g.GET("/users", s.userList, requireRole(admin))
	g.POST("/users", s.userCreate, requireRole(admin))
	g.POST("/users/:uid/role", s.userSetRole, requireRole(admin))
	g.POST("/users/:uid/password", s.userResetPassword, requireRole(admin))
	g.GET("/account", s.account, anyone)
	g.POST("/account/password", s.accountPassword, anyone)
	g.POST("/account/tokens", s.tokenCreate, anyone)
	g.POST("/account/tokens/:tid/revoke", s.tokenRevoke, anyone)
}
