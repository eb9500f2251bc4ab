// Package xlsx writes a capacity-and-cost report as one Excel workbook.
//
// Every figure in the workbook is either a value of planner.Result or a live
// formula that recomputes it from input cells (prices, demand, the
// objective), so a reader can change an input and watch the result move.
// Formula cells carry the planner's value as their cached result, so a
// reader that does not recalculate still shows the right numbers; the
// workbook also asks for a full recalculation on load.
package xlsx

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"capplan/planner"
)

// Report is what the workbook is written from: the report's identity and
// records, the inputs and the planner's result.
type Report struct {
	ID          int64
	Title       string
	Owner       string
	State       string
	Version     int
	FrozenAt    time.Time
	FrozenBy    string
	Predecessor int64
	Generated   time.Time

	Inputs planner.Inputs
	Result planner.Result

	// Sources are the imported files; when empty, the sources named by the
	// matrix rows are listed.
	Sources []Source
	History []Change
}

// Source is one imported result file.
type Source struct {
	File, SHA256, Format, FormatVersion, ToolVersion, Model string
	SizeBytes                                               int64
	Rows                                                    int
	ImportedBy                                              string
	ImportedAt                                              time.Time
}

// Change is one history entry.
type Change struct {
	At                                   time.Time
	User, Action, Section, Before, After string
}

// Sheet names, in workbook order.
const (
	shSummary        = "Summary"
	shContract       = "Contract"
	shMatrix         = "Matrix"
	shEnvelope       = "Envelope and admission"
	shReference      = "Reference"
	shOverload       = "Overload test"
	shCandidates     = "Candidates"
	shResidency      = "Residency"
	shCosts          = "Costs"
	shScenarios      = "Scenarios"
	shHybrid         = "Hybrid plan"
	shFleet          = "Fleet"
	shCrossover      = "Crossover"
	shTokens         = "Per million tokens"
	shFinance        = "Rates and provider"
	shRecommendation = "Recommendation"
	shExitCheck      = "Exit check"
	shSources        = "Sources"
	shHistory        = "History"
)

// SheetNames lists the workbook's sheets in order.
var SheetNames = []string{shSummary, shContract, shMatrix, shEnvelope, shReference, shOverload, shCandidates, shResidency,
	shCosts, shScenarios, shHybrid, shFleet, shCrossover, shTokens, shFinance, shRecommendation, shExitCheck, shSources, shHistory}

// Write builds the whole workbook in memory and only then writes it to w:
// a failure while building writes nothing.
func Write(w io.Writer, r Report) error {
	var buf bytes.Buffer
	if err := build(r, &buf); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	_, err := buf.WriteTo(w)
	return err
}

func build(r Report, out io.Writer) error {
	f := excelize.NewFile()
	defer f.Close()
	b := &book{f: f, r: r, names: map[string]string{}, sheets: map[string]*sheet{}, fitted: map[string]int{}, kinds: map[int]numKind{}}
	if err := b.newStyles(); err != nil {
		return err
	}
	for _, name := range SheetNames {
		b.sheets[name] = &sheet{name: name, freeze: 1}
	}
	b.contractSheet()
	b.matrixSheet()
	b.envelopeSheet()
	b.referenceSheet()
	b.costsSheet()
	b.scenariosSheet()
	b.fleetSheet()
	b.hybridSheet()
	b.crossoverSheet()
	b.tokensSheet()
	b.financeSheet()
	b.summarySheet()
	b.overloadSheet()
	b.candidatesSheet()
	b.residencySheet()
	b.recommendationSheet()
	b.exitCheckSheet()
	b.sourcesSheet()
	b.historySheet()

	for i, name := range SheetNames {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				return err
			}
		} else if _, err := f.NewSheet(name); err != nil {
			return err
		}
	}
	if err := b.fitFormats(); err != nil {
		return err
	}
	wrapped := map[int]bool{b.st.wrap: true, b.st.header: true}
	for _, name := range SheetNames {
		if err := printSetup(f, name); err != nil {
			return fmt.Errorf("sheet %s: %w", name, err)
		}
		if err := b.sheets[name].addNotes(f); err != nil {
			return fmt.Errorf("sheet %s: %w", name, err)
		}
		if err := b.sheets[name].flush(f, wrapped, b.st.text); err != nil {
			return fmt.Errorf("sheet %s: %w", name, err)
		}
	}
	names := make([]string, 0, len(b.names))
	for n := range b.names {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := f.SetDefinedName(&excelize.DefinedName{Name: n, RefersTo: b.names[n]}); err != nil {
			return fmt.Errorf("name %s: %w", n, err)
		}
	}
	t := true
	if err := f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &t}); err != nil {
		return err
	}
	f.SetActiveSheet(0)
	return f.Write(out)
}

// book is the workbook being built: its sheets as rows of cells, its styles
// and its named ranges.
type book struct {
	f      *excelize.File
	r      Report
	sheets map[string]*sheet
	names  map[string]string // defined name → absolute reference
	st     styles
	fitted map[string]int  // number format and fill → style, for fitFormats
	kinds  map[int]numKind // money and share styles → how fitFormats formats them

	scenarioRows []int // the Scenarios sheet row of each scenario
	// scenarioNames are the scenarios' defined-name bases ("Scenario_Peak").
	scenarioNames []string
	sizingShare   float64 // the busy-hour share that sizes capacity
}

// sheet is one worksheet held as rows until it is flushed.
type sheet struct {
	name   string
	rows   [][]any
	widths []float64
	freeze int // header rows kept in view
	// notes are cell notes (comments) by cell name: the code name a
	// header in words stands for ("F_local").
	notes map[string]string
}

// note puts a note on a cell of the sheet.
func (s *sheet) note(col, row int, text string) {
	if s.notes == nil {
		s.notes = map[string]string{}
	}
	name, _ := excelize.CoordinatesToCellName(col, row)
	s.notes[name] = text
}

// add appends a row and returns its 1-based number.
func (s *sheet) add(cells ...any) int {
	s.rows = append(s.rows, cells)
	return len(s.rows)
}

// next is the number the next added row will have.
func (s *sheet) next() int { return len(s.rows) + 1 }

func (s *sheet) cols(widths ...float64) { s.widths = widths }

// ref is the absolute reference of a cell of this sheet, for formulas
// written on other sheets.
func (s *sheet) ref(col, row int) string {
	return "'" + s.name + "'!" + abs(col, row)
}

// rng is the absolute reference of a column range of this sheet.
func (s *sheet) rng(col, from, to int) string {
	return "'" + s.name + "'!" + abs(col, from) + ":" + abs(col, to)
}

// printSetup prints a sheet landscape, fitted to the page's width (as
// many pages down as it needs).
func printSetup(f *excelize.File, name string) error {
	landscape, wide, tall, fit := "landscape", 1, 0, true
	if err := f.SetPageLayout(name, &excelize.PageLayoutOptions{Orientation: &landscape, FitToWidth: &wide, FitToHeight: &tall}); err != nil {
		return err
	}
	return f.SetSheetProps(name, &excelize.SheetPropsOptions{FitToPage: &fit})
}

// addNotes writes the sheet's notes, before its rows are streamed.
func (s *sheet) addNotes(f *excelize.File) error {
	cells := make([]string, 0, len(s.notes))
	for c := range s.notes {
		cells = append(cells, c)
	}
	sort.Strings(cells)
	for _, c := range cells {
		if err := f.AddComment(s.name, excelize.Comment{Cell: c, Author: "capplan", Text: s.notes[c]}); err != nil {
			return err
		}
	}
	return nil
}

// lineHeight is the height of one line of text in a row, in points (the
// default font's row height).
const lineHeight = 15.0

// rowHeight is the height a row needs so that every cell of a wrapping
// style (wrap) shows whole: its lines at its column's width, word-wrapped,
// times lineHeight; 0 (the default height) when every such cell fits on
// one line.
func (s *sheet) rowHeight(row []any, wrap map[int]bool) float64 {
	most := 1
	for i, c := range row {
		cell, ok := c.(excelize.Cell)
		if !ok || !wrap[cell.StyleID] {
			continue
		}
		text, ok := cell.Value.(string)
		if !ok {
			continue
		}
		width := 8.43 // a column without a set width
		if i < len(s.widths) {
			width = s.widths[i]
		}
		// A column's width counts the default font's digits; text runs
		// about a tenth narrower.
		most = max(most, wrappedLines(text, int(width*1.1)))
	}
	if most == 1 {
		return 0
	}
	return float64(most) * lineHeight
}

// wrappedLines counts the lines text takes word-wrapped at width
// characters, each line break in it starting a new line; a word longer than
// a line takes as many lines as it fills.
func wrappedLines(text string, width int) int {
	width = max(width-1, 4) // the cell's padding
	lines := 0
	for _, para := range strings.Split(text, "\n") {
		n, at := 1, 0
		for _, w := range strings.Fields(para) {
			l := len([]rune(w))
			switch {
			case at == 0:
				at = l
			case at+1+l <= width:
				at += 1 + l
				continue
			default:
				n++
				at = l
			}
			for at > width {
				n++
				at -= width
			}
		}
		lines += n
	}
	return max(lines, 1)
}

// flush streams the sheet's rows into f. A row that wrapped text makes
// taller than one line gets that height, and its unstyled cells the top
// style, so that every figure in it sits at the top beside the text.
func (s *sheet) flush(f *excelize.File, wrap map[int]bool, top int) error {
	sw, err := f.NewStreamWriter(s.name)
	if err != nil {
		return err
	}
	for i, w := range s.widths {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	if s.freeze > 0 && len(s.rows) > s.freeze {
		if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: s.freeze, TopLeftCell: "A" + fmt.Sprint(s.freeze+1), ActivePane: "bottomLeft"}); err != nil {
			return err
		}
	}
	for i, row := range s.rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		var opts []excelize.RowOpts
		if h := s.rowHeight(row, wrap); h > 0 {
			opts = append(opts, excelize.RowOpts{Height: min(h, 409)})
			for j, c := range row {
				switch x := c.(type) {
				case nil:
				case excelize.Cell:
					if x.StyleID == 0 {
						x.StyleID = top
						row[j] = x
					}
				default:
					row[j] = excelize.Cell{StyleID: top, Value: x}
				}
			}
		}
		if err := sw.SetRow(cell, row, opts...); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// abs is an absolute A1 reference: $C$5.
func abs(col, row int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return fmt.Sprintf("$%s$%d", name, row)
}

// rel is a relative A1 reference: C5.
func rel(col, row int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return fmt.Sprintf("%s%d", name, row)
}

// name defines a named range for a cell and returns the name.
func (b *book) name(n string, s *sheet, col, row int) string {
	b.names[n] = s.ref(col, row)
	return n
}

// styles are the cell formats of the workbook.
type styles struct {
	title, header, bold, text, wrap     int
	money, moneyIn, perReq, perReqIn    int
	pct, pctIn, secs, secsIn            int
	num, numIn, int, intIn, rate, plain int
	// demand is a demand in the pieces table, where 9E+99 stands for
	// "never" and -1 for "none"; demandEnd the end of a piece, where 9E+99
	// reads "no end" (the last piece is open-ended).
	demand, demandEnd int
}

func (b *book) newStyles() error {
	cur := b.currency()
	fmtMoney := `#,##0.00 "` + cur + `"`
	fmtPerReq := `#,##0.000000 "` + cur + `"`
	fmtSecs := `0.000 "s"`
	fmtPct := `0.00%`
	fmtNum := `#,##0.00`
	fmtInt := `#,##0`
	fmtRate := `0.000`
	input := inputFill
	// Figures sit at the top of a row that wrapped text makes tall.
	top := &excelize.Alignment{Vertical: "top"}
	border := []excelize.Border{{Type: "bottom", Color: "999999", Style: 1}}
	var err error
	mk := func(s *excelize.Style) int {
		if err != nil {
			return 0
		}
		var id int
		id, err = b.f.NewStyle(s)
		return id
	}
	num := func(f string, in bool) int {
		s := &excelize.Style{CustomNumFmt: &f, Alignment: top}
		if in {
			s.Fill = input
		}
		return mk(s)
	}
	b.st = styles{
		title:  mk(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 14}}),
		header: mk(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E8EEF4"}}, Border: border, Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}}),
		bold:   mk(&excelize.Style{Font: &excelize.Font{Bold: true}}),
		text:   mk(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}}),
		wrap:   mk(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}}),
		money:  num(fmtMoney, false), moneyIn: num(fmtMoney, true),
		perReq: num(fmtPerReq, false), perReqIn: num(fmtPerReq, true),
		pct: num(fmtPct, false), pctIn: num(fmtPct, true),
		secs: num(fmtSecs, false), secsIn: num(fmtSecs, true),
		num: num(fmtNum, false), numIn: num(fmtNum, true),
		int: num(fmtInt, false), intIn: num(fmtInt, true),
		rate:      num(fmtRate, false),
		demand:    num(`[>=1000000000000000000]"never";[<0]"none";#,##0.00`, false),
		demandEnd: num(`[>=1000000000000000000]"no end";[<0]"none";#,##0.00`, false),
		plain:     mk(&excelize.Style{Fill: input}),
	}
	cur = b.currency()
	for _, st := range []int{b.st.money, b.st.perReq} {
		b.kinds[st] = numKind{cur: cur}
	}
	for _, st := range []int{b.st.moneyIn, b.st.perReqIn} {
		b.kinds[st] = numKind{cur: cur, input: true}
	}
	b.kinds[b.st.pct] = numKind{share: true}
	b.kinds[b.st.pctIn] = numKind{share: true, input: true}
	// Measured and derived figures: the decimals DisplayNumber shows, so a
	// whole number stays whole (load 8, 420 W) and none shows fewer than 3
	// significant figures (0.0219 req/s, 0.0253 s).
	b.kinds[b.st.num] = numKind{number: true}
	b.kinds[b.st.numIn] = numKind{number: true, input: true}
	b.kinds[b.st.rate] = numKind{number: true}
	b.kinds[b.st.secs] = numKind{number: true, places: 3, suffix: ` "s"`}
	b.kinds[b.st.secsIn] = numKind{number: true, places: 3, suffix: ` "s"`, input: true}
	return err
}

// inputFill marks an input cell.
var inputFill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFF4CC"}}

// fitFormats gives every money, per-request and share cell the number
// format of the page's display rule (planner/display.go) for the value it
// holds at export, since a number format cannot count significant
// figures: amounts show cents, or the decimals that keep 3 significant
// figures (0.00578, 12.80, 2,410.87), shares as percentages with the
// decimals DisplayShare shows (0.14 %, 50.9 %, 62 %). A cell without a value
// keeps its sheet-wide format.
func (b *book) fitFormats() error {
	for _, name := range SheetNames {
		for _, row := range b.sheets[name].rows {
			for i, c := range row {
				cell, ok := c.(excelize.Cell)
				if !ok {
					continue
				}
				k, ok := b.kinds[cell.StyleID]
				if !ok {
					continue
				}
				val, ok := number(cell.Value)
				if !ok {
					continue
				}
				format := moneyFormat(val, k.cur)
				switch {
				case k.share:
					format = shareFormat(val)
				case k.number:
					format = numberFormat(val, k.places, k.suffix)
				}
				id, err := b.fitted1(format, k.input)
				if err != nil {
					return err
				}
				cell.StyleID = id
				row[i] = cell
			}
		}
	}
	return nil
}

// numKind is how fitFormats formats a style's cells: as a share, as a
// measured or derived number (places usual decimals, suffix after the
// number), or as an amount of currency cur; input cells keep the input
// fill.
type numKind struct {
	share, input bool
	cur          string
	number       bool
	places       int
	suffix       string
}

// inCur is a money style (money, moneyIn, perReq, perReqIn) for amounts
// typed in currency cur, when that is not the report's (a quote in USD):
// the cells show "USD". Other styles, and the report's currency, are
// returned as they are.
func (b *book) inCur(style int, cur string) int {
	cur = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(cur), `"`, ""))
	k, ok := b.kinds[style]
	if !ok || k.share || cur == "" || cur == b.currency() {
		return style
	}
	id, err := b.fitted1(`#,##0.00 "`+cur+`"`, k.input)
	if err != nil {
		return style
	}
	b.kinds[id] = numKind{input: k.input, cur: cur}
	return id
}

// fitted1 is the style of a number format, on the input fill or not.
func (b *book) fitted1(format string, input bool) (int, error) {
	key := fmt.Sprintf("%t %s", input, format)
	if id, ok := b.fitted[key]; ok {
		return id, nil
	}
	st := &excelize.Style{CustomNumFmt: &format, Alignment: &excelize.Alignment{Vertical: "top"}}
	if input {
		st.Fill = inputFill
	}
	id, err := b.f.NewStyle(st)
	b.fitted[key] = id
	return id, err
}

// moneyFormat is the number format that shows an amount as DisplayMoney
// does, with its currency.
func moneyFormat(val float64, cur string) string {
	return "#,##0" + decimals(planner.DisplayMoney(decimal.NewFromFloat(val))) + ` "` + cur + `"`
}

// shareFormat is the percentage format that shows a share with the
// decimals DisplayShare shows (never rounded to 100 % unless exactly so:
// 99.97 %), and at least 3 significant figures: 13.0 %, 60.0 %, 0.140 %;
// 100 % and 0 % as they are.
func shareFormat(val float64) string {
	places := len(decimals(strings.TrimSuffix(planner.DisplayShare(val), " %")))
	if places > 0 {
		places-- // the "."
	}
	if pct := math.Abs(val * 100); pct > 0 {
		places = max(places, 2-int(math.Floor(math.Log10(pct))))
	}
	if places <= 0 {
		return "0%"
	}
	return "0." + strings.Repeat("0", places) + "%"
}

// numberFormat is the format that shows a measured or derived figure as
// DisplayNumber does with places usual decimals: 8 -> "#,##0", 0.02192 ->
// "#,##0.0000", 65.6 -> "#,##0.0".
func numberFormat(val float64, places int, suffix string) string {
	return "#,##0" + decimals(planner.DisplayNumber(val, places)) + suffix
}

// decimals is the fraction part of a number format with as many places as
// the displayed text s has: ".00000" for "0.00578", "" for "62".
func decimals(s string) string {
	_, frac, ok := strings.Cut(s, ".")
	if !ok || frac == "" {
		return ""
	}
	return "." + strings.Repeat("0", len(frac))
}

// number is a cell value as a float, if it is a number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, !math.IsNaN(n) && !math.IsInf(n, 0)
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// currency is the report's currency as a format's literal.
func (b *book) currency() string {
	cur := strings.ReplaceAll(b.r.Result.Currency, `"`, "")
	if cur == "" {
		cur = strings.ReplaceAll(b.r.Inputs.Currency, `"`, "")
	}
	return cur
}

// Cell helpers. A nil value leaves the cell empty.

// v is a value with a style.
func v(style int, val any) any {
	if val == nil {
		return nil
	}
	return excelize.Cell{StyleID: style, Value: val}
}

// fx is a formula with a style and its cached value (the planner's).
func fx(style int, formula string, cached any) any {
	return excelize.Cell{StyleID: style, Formula: formula, Value: cached}
}

// h is a header cell.
func (b *book) h(text string) any { return excelize.Cell{StyleID: b.st.header, Value: text} }

func (b *book) headers(s *sheet, names ...string) int {
	row := make([]any, len(names))
	for i, n := range names {
		row[i] = b.h(n)
	}
	return s.add(row...)
}

// title starts a key-value sheet with its title row.
func (b *book) title(s *sheet, text string) {
	s.add(excelize.Cell{StyleID: b.st.title, Value: text})
}

// opt is an optional figure: nil stays empty.
func opt(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func optInt(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// dec is a Figure's amount, nil when not typed.
func dec(f *planner.Figure) any {
	if f == nil {
		return nil
	}
	return f.Amount.InexactFloat64()
}

func money(m planner.Money) float64 { return m.Exact.InexactFloat64() }

func optMoney(m *planner.Money) any {
	if m == nil {
		return ""
	}
	return m.Exact.InexactFloat64()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func passFail(b bool) string {
	if b {
		return "pass"
	}
	return "fail"
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// defName makes a defined name from free text: letters, digits and
// underscores, starting with a letter.
func defName(s string) string {
	var out strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			out.WriteRune(r)
		default:
			out.WriteRune('_')
		}
	}
	n := strings.Trim(out.String(), "_")
	if n == "" {
		n = "X"
	}
	if n[0] >= '0' && n[0] <= '9' {
		n = "N" + n
	}
	return n
}
