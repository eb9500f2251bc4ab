package reports

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"capplan/planner"
)

// ExportFOCUS writes report id's showback as a FOCUS 1.2 CSV under one
// meter (planner.MeterTokens or planner.MeterRequests), computed as of the
// service's clock: the rows are planner.ShowbackFOCUS's. The CSV is built
// whole before anything is written, so a refusal leaves nothing behind.
func (s *Service) ExportFOCUS(ctx context.Context, id int64, meter string, w io.Writer) error {
	rep, err := s.Load(ctx, id)
	if err != nil {
		return fmt.Errorf("report %d: %w", id, err)
	}
	rows, err := planner.ShowbackFOCUS(planner.FocusInput{ReportID: rep.ID, Title: rep.Title, Model: rep.In.Contract.BaselineModel,
		Currency: rep.Result.Currency, AsOf: rep.Result.AsOf, Showback: rep.Result.ShowbackDetail, Meter: meter,
		InObjectiveShare: rep.Result.Capacity.InObjectiveShare})
	if err != nil {
		return &FocusError{Msg: err.Error()}
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, rows); err != nil {
		return fmt.Errorf("focus report %d: %w", id, err)
	}
	_, err = buf.WriteTo(w)
	return err
}

// FocusError refuses a FOCUS export the report cannot give (no showback,
// no monthly cost, another meter), in words.
type FocusError struct{ Msg string }

func (e *FocusError) Error() string { return e.Msg }

// ErrorKind makes the refusal the user's to fix.
func (e *FocusError) ErrorKind() Kind { return KindInvalid }
