package reports

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// CSVCell is a cell as every CSV the app writes holds it: text that a
// spreadsheet would read as a formula (it starts with =, +, -, @, a tab or
// a carriage return) is prefixed with an apostrophe, which spreadsheets
// show as text. A cell that is a number as written ("-12.5", "+3") is left
// alone, so negative figures stay figures.
func CSVCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "\t\r") {
		return s
	}
	return "'" + s
}

// WriteCSV writes rows as CSV with every cell passed through CSVCell.
func WriteCSV(w io.Writer, rows [][]string) error {
	cw := csv.NewWriter(w)
	line := []string{}
	for _, r := range rows {
		line = line[:0]
		for _, cell := range r {
			line = append(line, CSVCell(cell))
		}
		if err := cw.Write(line); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
