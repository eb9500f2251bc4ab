package xlsx

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
)

// WriteComparison writes a side-by-side comparison as one sheet: what
// differs between the subjects first (every difference that moves a
// figure, each value under its subject), then each figure per subject,
// and a delta column per subject against the reference the user chose as
// a live formula. A lower-bound ceiling reads "at least 10" (the number
// stays a number, for the formulas).
func WriteComparison(w io.Writer, c planner.SideBySide) error {
	f := excelize.NewFile()
	defer f.Close()
	const sheet = "Comparison"
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		return err
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	// atLeast is a lower-bound ceiling's style: "at least 10", "at least
	// 11.3", its decimals as the figure has them (up to 3).
	atLeast := func(v float64) (int, error) {
		format := `"at least "0`
		if p := planner.DisplayPlaces(v, 0); p > 0 && v != math.Trunc(v) {
			format += "." + strings.Repeat("0", min(p, 3))
		}
		return f.NewStyle(&excelize.Style{CustomNumFmt: &format})
	}
	row := 1
	set := func(col int, v any) {
		name, _ := excelize.CoordinatesToCellName(col, row)
		f.SetCellValue(sheet, name, v)
	}
	names := func(label string) {
		set(1, label)
		for i, col := range c.Columns {
			set(2+i, col.Name)
		}
		a, _ := excelize.CoordinatesToCellName(1, row)
		b, _ := excelize.CoordinatesToCellName(1+len(c.Columns), row)
		f.SetCellStyle(sheet, a, b, bold)
		row++
	}
	set(1, "Side by side")
	f.SetCellStyle(sheet, "A1", "A1", bold)
	row++
	set(1, "Changes are against "+c.ReferenceName()+", the reference")
	row += 2
	if len(c.UpperBound) > 0 || len(c.Differences) > 0 {
		names("Not measured or priced alike")
	}
	for _, n := range c.UpperBound {
		set(1, n+": identical prompts; an upper bound, not a typical figure")
		row++
	}
	for _, d := range c.Differences {
		set(1, d.What+" differs")
		for i, v := range d.Values {
			set(2+i, v)
		}
		note := d.Note
		if len(d.Moves) > 0 {
			note += " (moves " + strings.Join(d.Moves, ", ") + ")"
		}
		if note != "" {
			set(2+len(d.Values), note)
		}
		row++
	}
	row++
	header := row
	names("Figure")
	ref := c.Reference
	deltaCols := []int{}
	for i := range c.Columns {
		if i != ref {
			deltaCols = append(deltaCols, i)
		}
	}
	row = header
	for j, i := range deltaCols {
		set(2+len(c.Columns)+j, "Δ "+c.Columns[i].Name+" vs "+c.Columns[ref].Name)
	}
	a, _ := excelize.CoordinatesToCellName(1, header)
	b, _ := excelize.CoordinatesToCellName(1+len(c.Columns)+len(deltaCols), header)
	f.SetCellStyle(sheet, a, b, bold)
	row++
	line := func(label string, vals []*float64) {
		set(1, label)
		for i, v := range vals {
			if v != nil {
				set(2+i, *v)
			}
		}
		base, _ := excelize.CoordinatesToCellName(2+ref, row)
		for j, i := range deltaCols {
			if vals[ref] == nil || vals[i] == nil || *vals[ref] == 0 {
				continue
			}
			other, _ := excelize.CoordinatesToCellName(2+i, row)
			cell, _ := excelize.CoordinatesToCellName(2+len(vals)+j, row)
			// The planner's delta as the cached value, the formula to recompute it.
			f.SetCellValue(sheet, cell, *vals[i] / *vals[ref] - 1)
			f.SetCellFormula(sheet, cell, fmt.Sprintf("%s/%s-1", other, base))
		}
		row++
	}
	pick := func(get func(planner.CompareColumn) *float64) []*float64 {
		out := make([]*float64, len(c.Columns))
		for i, col := range c.Columns {
			out[i] = get(col)
		}
		return out
	}
	line("Demonstrated ceiling", pick(func(x planner.CompareColumn) *float64 { return x.Ceiling }))
	for i, col := range c.Columns {
		if col.CeilingLowerBound && col.Ceiling != nil {
			cell, _ := excelize.CoordinatesToCellName(2+i, row-1)
			st, err := atLeast(*col.Ceiling)
			if err != nil {
				return err
			}
			f.SetCellStyle(sheet, cell, cell, st)
		}
	}
	set(1, "Demonstrated ceiling, in words")
	for i, col := range c.Columns {
		set(2+i, col.CeilingText)
	}
	row++
	line("Admission (max in flight)", pick(func(x planner.CompareColumn) *float64 {
		if x.MaxInFlight == nil {
			return nil
		}
		v := float64(*x.MaxInFlight)
		return &v
	}))
	line("Capacity per box (req/s)", pick(func(x planner.CompareColumn) *float64 { return x.PerBoxRate }))
	line("Power at the ceiling (W)", pick(func(x planner.CompareColumn) *float64 { return x.CeilingWatts }))
	set(1, "Power at the ceiling from")
	for i, col := range c.Columns {
		set(2+i, col.CeilingWattsSource)
	}
	row++
	line("Output tokens per joule", pick(func(x planner.CompareColumn) *float64 { return x.TokensPerJ }))
	for _, sc := range c.Scenarios {
		label := "Cost per 1,000 (" + sc + ")"
		if c.DemandDiffers[sc] {
			label += ", for different demand"
		}
		line(label, pick(func(x planner.CompareColumn) *float64 {
			m := x.CostPer1000[sc]
			if m == nil {
				return nil
			}
			v, _ := m.Rounded.Float64()
			return &v
		}))
	}
	f.SetColWidth(sheet, "A", "A", 34)
	return f.Write(w)
}
