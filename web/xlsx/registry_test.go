package xlsx

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"

	"capplan/planner"
)

// TestRegistryFieldsInTheWorkbook walks the cost registry: every field is
// an input cell of the Costs sheet under its named range, holding the typed
// value, on a row labelled as the registry says, with its source and date.
func TestRegistryFieldsInTheWorkbook(t *testing.T) {
	in := workedInputs()
	amount := func(f planner.Field, i int) decimal.Decimal {
		a := decimal.NewFromInt(int64(i + 1)).Div(decimal.NewFromInt(100))
		if f.Min != nil {
			a = a.Add(f.Min.Value)
		}
		return a
	}
	want := map[string]string{} // named range -> value
	for i, f := range planner.SelfHostedFields {
		switch {
		case f.Figure != nil:
			a := amount(f.Field, i)
			*f.Figure(&in.SelfHosted) = planner.Fig(a.String(), f.Unit, "source "+f.Name, "2026-11-01")
			want[f.Sheet] = a.String()
		case f.Int != nil:
			*f.Int(&in.SelfHosted) = 12 + i
			want[f.Sheet] = strconv.Itoa(12 + i)
		case f.Text != nil:
			*f.Text(&in.SelfHosted) = f.Options[len(f.Options)-1]
			want[f.Sheet] = f.Options[len(f.Options)-1]
		}
	}
	for i, f := range planner.QuoteFields {
		a := amount(f.Field, i)
		*f.Figure(&in.Quotes[0]) = planner.Fig(a.String(), f.Unit, "source "+f.Name, "2026-11-01")
		want[quotePrefix(0)+f.Sheet] = a.String()
	}
	if err := in.Validate(); err != nil {
		t.Fatalf("the test's inputs are refused: %v", err)
	}
	f := openBook(t, writeBook(t, testReport(in)))
	check := func(fd planner.Field, name string) {
		t.Helper()
		c := namedCell(t, f, name)
		got := raw(t, f, c)
		if g, err := decimal.NewFromString(got); err == nil {
			got = g.String()
		}
		if got != want[name] {
			t.Errorf("%s (%s) holds %q, want %q", name, fd.Key(), got, want[name])
		}
		label, _ := f.GetCellValue(c.sheet, fmt.Sprintf("A%d", c.row))
		if label != fd.Label {
			t.Errorf("%s is on the row of %q, want the registry's label %q", name, label, fd.Label)
		}
		if fd.Kind.IsFigure() {
			src, _ := f.GetCellValue(c.sheet, fmt.Sprintf("D%d", c.row))
			if src != "source "+fd.Name {
				t.Errorf("%s: source %q, want %q", name, src, "source "+fd.Name)
			}
		}
	}
	for _, fd := range planner.SelfHostedFields {
		check(fd.Field, fd.Sheet)
	}
	for _, fd := range planner.QuoteFields {
		check(fd.Field, quotePrefix(0)+fd.Sheet)
	}
}

// TestProviderFieldsInTheWorkbook: every provider input of the registry is
// a named cell of the workbook on a row labelled as the registry says.
func TestProviderFieldsInTheWorkbook(t *testing.T) {
	in := workedInputs()
	in.Provider = &planner.ProviderInputs{}
	for i, fd := range planner.ProviderFields {
		a := decimal.NewFromInt(int64(i + 1)).Div(decimal.NewFromInt(10))
		*fd.Figure(in.Provider) = planner.Fig(a.String(), fd.Unit, "price list", "2026-11-01")
	}
	if err := in.Validate(); err != nil {
		t.Fatalf("the test's inputs are refused: %v", err)
	}
	f := openBook(t, writeBook(t, testReport(in)))
	for _, fd := range planner.ProviderFields {
		c := namedCell(t, f, fd.Sheet)
		label, _ := f.GetCellValue(c.sheet, fmt.Sprintf("A%d", c.row))
		if label != fd.Label {
			t.Errorf("%s is on the row of %q, want the registry's label %q", fd.Sheet, label, fd.Label)
		}
	}
}
