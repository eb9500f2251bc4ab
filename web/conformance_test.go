package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/xlsx"
	"capplan/web/xlsx/recalc"
)

// One truth on every surface: every figure below, as the page shows it, is
// on the page, in the JSON API (the figure is built from the API's value)
// and, once LibreOffice has recalculated the exported workbook with
// recalculation forced on load, in the workbook, equal at the precision the
// page shows. The figures are found by name (a workbook's defined name, a
// column's header and the row's load, a page section), so sheets and
// sections may gain figures without breaking the test.

// surfaceFigure is one figure the page shows.
type surfaceFigure struct {
	name    string
	shown   string // as the page shows it, from the API's value
	section string // the page section that shows it
	sheet   string // the workbook cell that mirrors it
	cell    string
	kind    string // how a workbook value is shown: money, count, share, pct1, pct2, num0, num2, text
}

// showAs writes a workbook's raw value as the page would show it.
func showAs(kind, raw string) string {
	raw = strings.TrimSpace(raw)
	if kind == "text" {
		return raw
	}
	if raw == "" {
		return "—"
	}
	pct := strings.HasSuffix(raw, "%")
	if pct {
		// A percentage cell: LibreOffice writes 17.63...% for 0.1763...
		d, err := decimal.NewFromString(strings.TrimSuffix(raw, "%"))
		if err != nil {
			return "not a number: " + raw
		}
		raw = d.Shift(-2).String()
	}
	f, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		return "not a number: " + raw
	}
	switch kind {
	case "money":
		return planner.DisplayMoney(decimal.RequireFromString(raw))
	case "count":
		return planner.DisplayCount(int64(f))
	case "share":
		return planner.DisplayShare(f)
	case "pct1":
		return planner.DisplayPercent(f, 1)
	case "pct2":
		return planner.DisplayPercent(f, 2)
	case "num1":
		return planner.DisplayNumber(f, 1)
	case "num2":
		return planner.DisplayNumber(f, 2)
	}
	return planner.DisplayNumber(f, 0)
}

// definedCell is where a workbook's defined name points.
func definedCell(t *testing.T, f *excelize.File, name string) (sheet, cell string) {
	t.Helper()
	for _, dn := range f.GetDefinedName() {
		if dn.Name != name {
			continue
		}
		ref := strings.TrimPrefix(dn.RefersTo, "=")
		i := strings.LastIndex(ref, "!")
		if i < 0 {
			break
		}
		return strings.Trim(ref[:i], "'"), strings.ReplaceAll(ref[i+1:], "$", "")
	}
	t.Fatalf("the workbook defines no %s", name)
	return "", ""
}

// headerCell is the cell of sheet in the column headed header (row 1) and
// the given 1-based row.
func headerCell(t *testing.T, f *excelize.File, sheet, header string, row int) string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", sheet, err)
	}
	for i, h := range rows[0] {
		if h == header {
			c, _ := excelize.CoordinatesToCellName(i+1, row)
			return c
		}
	}
	t.Fatalf("%s has no column %q (headers %q)", sheet, header, rows[0])
	return ""
}

// hasName is true when the workbook defines name.
func hasName(f *excelize.File, name string) bool {
	for _, dn := range f.GetDefinedName() {
		if dn.Name == name {
			return true
		}
	}
	return false
}

// surfaceFigures lists the figures the page shows for res, each with the
// workbook cell that mirrors it.
func surfaceFigures(t *testing.T, res planner.Result, f *excelize.File) []surfaceFigure {
	t.Helper()
	var fs []surfaceFigure
	named := func(name, shown, section, defined, kind string) {
		sh, c := definedCell(t, f, defined)
		fs = append(fs, surfaceFigure{name, shown, section, sh, c, kind})
	}
	// The matrix, row by row: headroom and power as resolved (the GPU
	// log's over the typed), the success rate, the verdict.
	for i, rr := range res.Matrix {
		load := fmt.Sprintf("load %s row %d", planner.DisplayNumber(rr.Load, 0), i)
		add := func(what, shown, header, kind string) {
			fs = append(fs, surfaceFigure{load + " " + what, shown, "matrix", "Matrix", headerCell(t, f, "Matrix", header, i+2), kind})
		}
		if rr.MemoryHeadroom != nil {
			add("headroom", planner.DisplayPercent(*rr.MemoryHeadroom, 1), "Memory headroom", "pct1")
		}
		if rr.PowerWattsMean != nil {
			add("power", planner.DisplayNumber(*rr.PowerWattsMean, 0), "Power (W)", "num0")
		}
		if rr.SuccessRate != nil {
			add("success rate", planner.DisplayPercent(*rr.SuccessRate, 2), "Success rate", "pct2")
		}
		add("verdict", string(rr.Verdict.State), "Verdict", "text")
	}
	if c := res.Envelope.Ceiling; c != nil {
		named("ceiling", planner.DisplayNumber(*c, 0), "envelope", "Ceiling_Load", "num0")
	}
	if r := res.Capacity.CeilingRate; r != nil {
		named("successful req/s at the ceiling", planner.DisplayNumber(*r, 2), "scenarios", "Ceiling_Rate", "num2")
	}
	if r := res.Capacity.PerBoxRate; r != nil {
		named("capacity per box", planner.DisplayNumber(*r, 2), "scenarios", "Capacity_Per_Box_Rate", "num2")
	}
	if m := res.Admission.MaxInFlight; m != nil {
		named("max in flight", strconv.Itoa(*m), "envelope", "Max_In_Flight", "num0")
	}
	named("self-hosted monthly per box", res.SelfHosted.FixedPerBox.Display(), "costs", "SH_Fixed_Per_Box", "money")
	// Each self-hosted cost line.
	for _, l := range res.SelfHosted.Lines {
		name := "SH_Line_" + strings.ToUpper(l.Category[:1]) + l.Category[1:]
		if hasName(f, name) {
			named("self-hosted "+l.Category, l.Monthly.Display(), "costs", name, "money")
		}
	}
	// The soak's totals.
	if sk := res.Soak; sk.EnergyMJ != nil {
		named("soak energy (MJ)", planner.DisplayNumber(*sk.EnergyMJ, 1), "evidence", "Soak_Energy_MJ", "num1")
		named("soak energy (kWh)", planner.DisplayNumber(*sk.EnergyKWh, 2), "evidence", "Soak_Energy_KWh", "num2")
		if sk.TokensPerJoule != nil {
			named("soak output tokens per joule", planner.DisplayNumber(*sk.TokensPerJoule, 2), "evidence", "Soak_Tokens_Per_Joule", "num2")
		}
	}
	// The scenarios: boxes, and each option's monthly cost and cost per
	// 1,000.
	for i, sr := range res.Scenarios {
		r := i + 2
		add := func(what, shown, header, kind string) {
			fs = append(fs, surfaceFigure{sr.Scenario.Name + " " + what, shown, "scenarios", "Scenarios", headerCell(t, f, "Scenarios", header, r), kind})
		}
		if sr.BoxesNeeded != nil {
			add("boxes needed", strconv.Itoa(*sr.BoxesNeeded), "Boxes needed", "num0")
		}
		add("busy-hour rate", planner.DisplayNumber(sr.BusyHourRate, 0), "Busy-hour rate (req/s)", "num0")
		for o, oc := range sr.Options {
			name := "Self-hosted"
			if o > 0 {
				name = oc.Option
			}
			add(oc.Option+" monthly", oc.MonthlyCost.Display(), name+" monthly", "money")
			if oc.CostPer1000 != nil {
				add(oc.Option+" per 1,000", oc.CostPer1000.Display(), name+" per 1,000", "money")
			}
		}
	}
	// The hybrid plan of each scenario: each n's overflow, monthly cost
	// and cost per 1,000 (the Hybrid plan sheet's columns are the n the
	// planner costed on export: a changed workbook is checked where both
	// have them).
	for i, sr := range res.Scenarios {
		h := sr.Hybrid
		if h == nil || len(h.Options) < 2 {
			continue
		}
		base := "Scenario_" + strings.ToUpper(sr.Scenario.Name[:1]) + sr.Scenario.Name[1:]
		if !hasName(f, base+"_Requests") {
			t.Fatalf("scenario %d: no defined name %s_Requests", i, base)
		}
		for n, o := range h.Options {
			p := fmt.Sprintf("%s_Hybrid_%d_", base, n)
			if !hasName(f, p+"Monthly") {
				continue
			}
			what := fmt.Sprintf("%s hybrid with %d owned ", sr.Scenario.Name, n)
			named(what+"overflow", planner.DisplayCount(o.Overflow), "scenarios", p+"Overflow", "count")
			named(what+"monthly", o.Monthly.Display(), "scenarios", p+"Monthly", "money")
			if o.CostPer1000 != nil {
				named(what+"per 1,000", o.CostPer1000.Display(), "scenarios", p+"Per_1000", "money")
			}
		}
	}
	// The crossover of each compared quote, rounded up to a request.
	for i, x := range res.Crossovers {
		if x.NRounded == nil {
			continue
		}
		named(x.Quote+" crossover", planner.DisplayCount(*x.NRounded), "crossover", fmt.Sprintf("Quote%d_Crossover_N_Rounded", i+1), "count")
	}
	// The provider view.
	if pv := res.Provider; pv != nil {
		if pv.BreakEvenUtilisation != nil {
			named("break-even utilisation", planner.DisplayShare(*pv.BreakEvenUtilisation), "provider", "Provider_Break_Even_Utilisation", "share")
		}
		if pv.MarginAtExpected != nil {
			named("modelled margin", pv.MarginAtExpected.Display(), "provider", "Provider_Margin_Monthly", "money")
		}
	}
	return fs
}

// surfaceReport is one report as the page, the API and the workbook give it.
type surfaceReport struct {
	res  planner.Result
	page string
	book []byte
}

func readSurfaces(t *testing.T, app *testApp, id int64) surfaceReport {
	t.Helper()
	var doc struct {
		Result planner.Result `json:"result"`
	}
	if err := json.Unmarshal([]byte(reportJSON(t, app, id)), &doc); err != nil {
		t.Fatal(err)
	}
	c := app.client("admin")
	// The print view carries every section of every step on one page.
	_, page := do(t, c, http.MethodGet, fmt.Sprintf("%s/reports/%d/print", app.srv.URL, id), nil)
	res, err := c.Get(fmt.Sprintf("%s/reports/%d/export.xlsx", app.srv.URL, id))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	buf.ReadFrom(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("export: %d", res.StatusCode)
	}
	return surfaceReport{doc.Result, page, buf.Bytes()}
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// pageText is a page section's text, tags dropped and spaces collapsed.
func pageText(page, section string) string {
	s := sectionOf(page, section)
	s = html.UnescapeString(tagRE.ReplaceAllString(s, " "))
	return strings.Join(strings.Fields(s), " ")
}

// cellAt is a recalculated sheet's cell by name.
func cellAt(sheets map[string][][]string, sheet, cell string) string {
	col, row, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		return ""
	}
	rows := sheets[sheet]
	if row-1 >= len(rows) || col-1 >= len(rows[row-1]) {
		return ""
	}
	return rows[row-1][col-1]
}

// checkSurfaces asserts every figure of s on the page and in the
// recalculated workbook; it returns how many it checked. Without the page
// (a workbook changed by hand) only the figures the workbook computes are
// checked: a figure it holds as a value (the proposed max in flight) does
// not follow a changed input.
func checkSurfaces(t *testing.T, name string, s surfaceReport, sheets map[string][][]string, page bool) int {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(s.book))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	figs := surfaceFigures(t, s.res, f)
	for _, fg := range figs {
		if !page {
			if fm, _ := f.GetCellFormula(fg.sheet, fg.cell); fm == "" {
				continue
			}
		}
		if page {
			if txt := pageText(s.page, fg.section); !containsFigure(txt, fg.shown) {
				t.Errorf("%s: %s: the API's %q is not on the page's %s section", name, fg.name, fg.shown, fg.section)
			}
		}
		raw := cellAt(sheets, fg.sheet, fg.cell)
		if got := showAs(fg.kind, raw); got != fg.shown {
			t.Errorf("%s: %s: the recalculated workbook's %s!%s is %q, shown %q; the page and the API show %q", name, fg.name, fg.sheet, fg.cell, raw, got, fg.shown)
		}
	}
	return len(figs)
}

// containsFigure is true when text shows the figure as a whole figure,
// not as part of a longer number ("8" is not in "18.8 %").
func containsFigure(text, fig string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], fig)
		if j < 0 {
			return false
		}
		at := i + j
		end := at + len(fig)
		before := at == 0 || !strings.ContainsAny(text[at-1:at], "0123456789.,")
		after := end == len(text) || !strings.ContainsAny(text[end:end+1], "0123456789") && !(strings.ContainsAny(text[end:end+1], ".,") && end+1 < len(text) && strings.ContainsAny(text[end+1:end+2], "0123456789"))
		if before && after {
			return true
		}
		i = at + 1
	}
}

// overrideReport is the demo with a typed headroom of 5 % at load 8 under
// the GPU log that covers it, a fleet, a USD quote with volume bands
// converted at a dated rate, and the demo's provider view.
func overrideReport(t *testing.T, app *testApp) int64 {
	t.Helper()
	id := demoReport(t, app).ID
	ctx := t.Context()
	admin := app.client("admin")
	stored, err := app.store.Rows(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var r8 int64
	for _, sr := range stored {
		if l, ok := sr.Row.LoadValue(); ok && l == 8 && sr.CandidateID == 0 {
			r8 = sr.ID
		}
	}
	if r8 == 0 {
		t.Fatal("the demo has no load-8 row")
	}
	base := fmt.Sprintf("%s/reports/%d", app.srv.URL, id)
	if res, body := do(t, admin, http.MethodPost, fmt.Sprintf("%s/rows/%d/observed", base, r8), url.Values{"version": {reportVersion(t, app, id)},
		"headroom": {"5"}, "peak_memory_gib": {"76"}, "power_watts": {"700"}, "oom_checked": {"on"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("typed headroom: %d %.600s", res.StatusCode, body)
	}
	if res, body := post(t, app, admin, id, "/fleet", url.Values{"fleet.topology": {planner.TopologyBoxes}, "fleet.scaling": {"1.8"}, "fleet.scaling_replicas": {"2"},
		"fleet.scaling_source": {"vendor sizing note"}, "fleet.scaling_date": {today}, "fleet.reserve": {"1"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("fleet: %d\n%.800s", res.StatusCode, body)
	}
	q := workedQuote("Banded USD API")
	q.Set("currency", "USD")
	q.Set("quote.input_per_m_tokens", "0.3")
	q.Set("quote.output_per_m_tokens", "0.9")
	q.Set("quote.tiers[0].from_m_tokens", "5")
	q.Set("quote.tiers[0].input_per_m_tokens", "0.25")
	q.Set("quote.tiers[0].output_per_m_tokens", "0.7")
	if res, body := do(t, admin, http.MethodPost, app.srv.URL+"/quotes", q); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /quotes: %d\n%.800s", res.StatusCode, body)
	}
	if res, body := post(t, app, admin, id, "/quotes", url.Values{"quote_id": {fmt.Sprint(quoteID(t, app, "Banded USD API"))}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("attach: %d\n%.800s", res.StatusCode, body)
	}
	settings := url.Values{"currency": {"EUR"}, "token_basis": {"contract"}, "max_boxes": {"4"}, "stale_after_days": {"90"}, "tax_basis": {"net"},
		"exchange_rates[0].currency": {"USD"}, "exchange_rates[0].rate": {"0.92"},
		"exchange_rates[0].rate.source": {"ECB reference rate"}, "exchange_rates[0].rate.evidence_date": {today}}
	if res, body := post(t, app, admin, id, "/costs/settings", settings); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("settings: %d\n%.800s", res.StatusCode, body)
	}
	return id
}

// TestOneTruthOnEverySurface: the demo, and the demo with a typed
// headroom under its GPU log, a fleet and a banded USD quote converted at
// a dated rate: page, API and recalculated workbook agree on every figure.
// Then three inputs changed in the workbook (a price, a demand, a row's
// headroom) recalculate to the planner's figures for the same inputs.
func TestOneTruthOnEverySurface(t *testing.T) {
	app := newTestApp(t)
	demoID := demoReport(t, app).ID
	demo := readSurfaces(t, app, demoID)

	app2 := newTestApp(t)
	overID := overrideReport(t, app2)
	over := readSurfaces(t, app2, overID)
	// The typed 5 % at load 8 is under the log: the log's 12.6 % stands,
	// and so does the ceiling of 8.
	for _, rr := range over.res.Matrix {
		if rr.Load == 8 && (rr.MemoryHeadroom == nil || *rr.MemoryHeadroom < 0.12 || !strings.HasPrefix(rr.MemoryHeadroomSource, "telemetry")) {
			t.Fatalf("load 8: headroom %v from %q, want the log's", rr.MemoryHeadroom, rr.MemoryHeadroomSource)
		}
	}
	if c := over.res.Envelope.Ceiling; c == nil || *c != 8 {
		t.Fatalf("override: ceiling %v, want 8", c)
	}
	if over.res.Fleet == nil || len(over.res.Quotes) < 2 || over.res.Quotes[1].Excluded != "" {
		t.Fatalf("override: fleet %v, quotes %d", over.res.Fleet, len(over.res.Quotes))
	}

	// The changed workbook: a dearer output price for the demo's quote,
	// more expected demand, and 5 % headroom typed into the load-8 row
	// (which now fails its headroom check: the ceiling drops to 4).
	changed, want := changeInWorkbook(t, app, demoID, demo.book)

	books := map[string][]byte{"demo": demo.book, "override": over.book, "changed": changed}
	sheets := recalc.Books(t, books, xlsx.SheetNames)
	n := checkSurfaces(t, "demo", demo, sheets["demo"], true)
	n += checkSurfaces(t, "override", over, sheets["override"], true)
	t.Logf("%d figures checked on the page, in the API and in the workbook", n)
	if n < 80 {
		t.Errorf("only %d figures checked", n)
	}
	if c := want.Envelope.Ceiling; c == nil || *c != 4 {
		t.Fatalf("changed: the planner's ceiling %v, want 4", c)
	}
	checkSurfaces(t, "changed in the workbook", surfaceReport{res: want, book: changed}, sheets["changed"], false)
}

// changeInWorkbook changes, in the exported workbook of report id, the
// first quote's output price, the expected scenario's demand and the
// load-8 row's headroom, and returns it with the planner's result for the
// same inputs: the same changes made to the report's inputs, the load-8
// row's measured figures typed as the workbook holds them (the GPU log no
// longer covering it).
func changeInWorkbook(t *testing.T, app *testApp, id int64, book []byte) ([]byte, planner.Result) {
	t.Helper()
	rep, err := reports.New(app.store, "", time.Now).LoadWhole(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	in := rep.In
	f, err := excelize.OpenReader(bytes.NewReader(book))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set := func(sheet, cell string, v any) {
		if err := f.SetCellValue(sheet, cell, v); err != nil {
			t.Fatal(err)
		}
	}
	sh, c := definedCell(t, f, "Quote1_Price_Output_Per_M")
	set(sh, c, 2.5)
	in.Quotes[0].OutputPerMTokens = planner.Fig("2.5", in.Quotes[0].OutputPerMTokens.Unit, in.Quotes[0].OutputPerMTokens.Source, in.Quotes[0].OutputPerMTokens.EvidenceDate)
	sh, c = definedCell(t, f, "Scenario_Expected_Requests")
	set(sh, c, 500000)
	for i := range in.Scenarios {
		if in.Scenarios[i].Name == "expected" {
			in.Scenarios[i].MonthlyRequests = 500_000
		}
	}
	before := planner.Compute(in)
	for i, rr := range before.Matrix {
		if rr.Load != 8 {
			continue
		}
		set("Matrix", headerCell(t, f, "Matrix", "Memory headroom", i+2), 0.05)
		key := planner.RowKey(rr.Row)
		for j := range in.Rows {
			if planner.RowKey(in.Rows[j]) != key {
				continue
			}
			o := &in.Rows[j].Observed
			o.Headroom, o.PeakMemoryGiB, o.PowerWatts = planner.F(0.05), rr.PeakMemoryGiB, rr.PowerWattsMean
		}
		tel := *in.Telemetry
		tel.Rows = nil
		for _, tr := range in.Telemetry.Rows {
			if tr.RowKey != key {
				tel.Rows = append(tel.Rows, tr)
			}
		}
		in.Telemetry = &tel
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), planner.Compute(in)
}
