package xlsx

import (
	"fmt"
	"io"

	"github.com/xuri/excelize/v2"

	"capplan/planner"
)

// WriteComparison writes a side-by-side comparison as one sheet: what
// differs between the subjects first, then each figure per subject, and a
// delta column per subject against the first as a live formula.
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
	row := 1
	set := func(col int, v any) {
		name, _ := excelize.CoordinatesToCellName(col, row)
		f.SetCellValue(sheet, name, v)
	}
	set(1, "Side by side")
	f.SetCellStyle(sheet, "A1", "A1", bold)
	row += 2
	for _, n := range c.UpperBound {
		set(1, n+": identical prompts; an upper bound, not a typical figure")
		row++
	}
	for _, d := range c.Differences {
		set(1, d.What+" differs")
		for i, v := range d.Values {
			set(2+i, v)
		}
		if d.Note != "" {
			set(2+len(d.Values), d.Note)
		}
		row++
	}
	row++
	header := row
	set(1, "Figure")
	for i, col := range c.Columns {
		set(2+i, col.Name)
	}
	for i := 1; i < len(c.Columns); i++ {
		set(1+len(c.Columns)+i, "Δ "+c.Columns[i].Name+" vs "+c.Columns[0].Name)
	}
	a, _ := excelize.CoordinatesToCellName(1, header)
	b, _ := excelize.CoordinatesToCellName(len(c.Columns)*2, header)
	f.SetCellStyle(sheet, a, b, bold)
	row++
	line := func(label string, vals []*float64) {
		set(1, label)
		for i, v := range vals {
			if v != nil {
				set(2+i, *v)
			}
		}
		first, _ := excelize.CoordinatesToCellName(2, row)
		for i := 1; i < len(vals); i++ {
			if vals[0] == nil || vals[i] == nil || *vals[0] == 0 {
				continue
			}
			other, _ := excelize.CoordinatesToCellName(2+i, row)
			cell, _ := excelize.CoordinatesToCellName(1+len(vals)+i, row)
			// The planner's delta as the cached value, the formula to recompute it.
			f.SetCellValue(sheet, cell, *vals[i] / *vals[0] - 1)
			f.SetCellFormula(sheet, cell, fmt.Sprintf("%s/%s-1", other, first))
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
		line("Cost per 1,000 ("+sc+")", pick(func(x planner.CompareColumn) *float64 {
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
