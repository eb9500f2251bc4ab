package reports

import (
	"context"
	"fmt"
	"io"

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

// ExportName is the download's file name: report-7-v12.xlsx.
func ExportName(rep *Report, ext string) string {
	return fmt.Sprintf("report-%d-v%d.%s", rep.ID, rep.Version, ext)
}
