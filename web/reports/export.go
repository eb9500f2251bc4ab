package reports

import (
	"context"
	"fmt"
	"io"
	"strings"

	"capplan/web/xlsx"
)

// WriteXLSX writes the workbook; a variable so a test can make it fail.
var WriteXLSX = xlsx.Write

// ExportData is what the workbook of rep is written from.
func (s *Service) ExportData(rep *Report) xlsx.Report {
	d := xlsx.Report{ID: rep.ID, Title: rep.Title, Owner: rep.Owner, State: rep.Review.State.Label(), Version: rep.Version,
		FrozenAt: rep.FrozenAt, FrozenBy: rep.FrozenBy, Predecessor: rep.Review.PredecessorID, Generated: s.now(),
		Inputs: rep.In, Result: rep.Result}
	for _, im := range rep.Imports {
		d.Sources = append(d.Sources, xlsx.Source{File: im.FileName, SHA256: im.SHA256, Format: im.Format, FormatVersion: im.FormatVersion,
			ToolVersion: im.ToolVersion, Model: im.Model, SizeBytes: im.SizeBytes, Rows: im.Rows, ImportedBy: im.User, ImportedAt: im.At})
	}
	for _, h := range rep.History {
		d.History = append(d.History, xlsx.Change{At: h.At, User: h.User, Action: h.Action, Section: h.Section, Before: h.Before, After: h.After})
	}
	return d
}

// Export writes report id as a workbook with live formulas to w, computed
// as of the service's clock. Write it to a buffer first when a failure
// must leave nothing behind.
func (s *Service) Export(ctx context.Context, id int64, w io.Writer) error {
	rep, err := s.LoadWhole(ctx, id)
	if err != nil {
		return fmt.Errorf("report %d: %w", id, err)
	}
	if err := WriteXLSX(w, s.ExportData(rep)); err != nil {
		return fmt.Errorf("export report %d: %w", id, err)
	}
	return nil
}

// ExportName is the download's file name: the report's title and version,
// safe on every file system and in a header ("Demo: support assistant
// on one H100", version 28: Demo-support-assistant-on-one-H100-v28.xlsx);
// report-7-v12.xlsx for a title with no letters or digits.
func ExportName(rep *Report, ext string) string {
	return fmt.Sprintf("%s-v%d.%s", SafeFileStem(rep.Title, fmt.Sprintf("report-%d", rep.ID)), rep.Version, ext)
}

// SafeFileStem is title as a file name's stem: ASCII letters, digits,
// dots and underscores kept, every other run of characters one hyphen, at
// most 80 characters, no leading or trailing hyphen or dot; def when
// nothing is left.
func SafeFileStem(title, def string) string {
	var b strings.Builder
	dash := false
	for _, r := range title {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '.'
		switch {
		case ok:
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	stem := b.String()
	if len(stem) > 80 {
		stem = stem[:80]
	}
	stem = strings.Trim(stem, "-.")
	if stem == "" {
		return def
	}
	return stem
}
