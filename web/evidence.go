package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/reports"
	"capplan/web/store"
	"capplan/web/view"
)

// Report sections holding operations evidence, each a planner input type.
const (
	secTelemetry = reports.SecTelemetry // planner.TelemetryInput
	secSoak      = reports.SecSoak      // planner.Soak
	secShowback  = reports.SecShowback  // planner.ShowbackUsage
	secDemand    = reports.SecDemand    // planner.Demand
)

// evidenceKinds are the evidence uploads, by the path segment that names them.
var evidenceKinds = map[string]string{
	"telemetry": secTelemetry, "soak": secSoak, "showback": secShowback, "demand": secDemand,
}

// evidenceUpload is one evidence form: its small fields, read before the
// file, and the file part streamed to the importer.
type evidenceUpload struct {
	fields url.Values
	name   string
}

// receiveEvidence reads the form's fields until the "file" part and hands
// that part to use. The file input comes last in every evidence form, so
// the fields are known when the file streams. A second file is ignored.
func receiveEvidence(c echo.Context, use func(up evidenceUpload, file io.Reader) error) (url.Values, error) {
	return receiveFiles(c, false, use)
}

// receiveFiles is receiveEvidence for a form whose file input takes
// several files (many): each "file" part is handed to use in turn, and the
// first error stops the reading.
func receiveFiles(c echo.Context, many bool, use func(up evidenceUpload, file io.Reader) error) (url.Values, error) {
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return nil, &badUploadError{"expected a multipart/form-data upload with the file in the field \"file\""}
	}
	fields := url.Values{}
	used := false
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fields, &badUploadError{"the upload was cut off or malformed: " + err.Error()}
		}
		name := part.FormName()
		if name == "file" {
			if part.FileName() == "" || (used && !many) {
				part.Close()
				continue
			}
			used = true
			err := use(evidenceUpload{fields: fields, name: part.FileName()}, part)
			part.Close()
			if err != nil {
				return fields, err
			}
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(part, 256))
		fields.Add(name, strings.TrimSpace(string(b)))
		part.Close()
	}
	if !used {
		return fields, &badUploadError{"choose a file to import"}
	}
	return fields, nil
}

// evidenceSave imports one evidence file into the report: POST
// /reports/:id/evidence/:kind. The file streams through its importer; only
// the aggregated figures are stored, as one change to the report. A file
// that cannot be read changes nothing and is named in the answer.
func (s *Server) evidenceSave(c echo.Context) error {
	r, kind, sec, err := s.evidenceOf(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rep, err := s.svc.Load(ctx, r.ID)
	if err != nil {
		return err
	}
	in, res := rep.In, rep.Result
	opt := importers.EvidenceOptions{MaxBytes: s.cfg.MaxUploadBytes}
	var doc any
	var summary string
	fields, err := receiveEvidence(c, func(up evidenceUpload, file io.Reader) error {
		if off := up.fields.Get("utc_offset_h"); off != "" {
			h, err := strconv.ParseFloat(off, 64)
			if err != nil || h < -14 || h > 14 {
				return &badUploadError{"UTC offset: " + strconv.Quote(off) + " is not a number of hours between -14 and 14"}
			}
			opt.Location = time.FixedZone(fmt.Sprintf("UTC%+g", h), int(h*3600))
		}
		switch kind {
		case "telemetry":
			t, n, err := importTelemetry(up, file, opt, res)
			doc, summary = t, n
			return err
		case "soak":
			sk, f, err := importers.ParseSoak(up.name, file, opt)
			if err != nil {
				return err
			}
			sk.SHA256 = f.SHA256
			doc, summary = sk, fmt.Sprintf("%s: %d soak hours and %d drains imported", up.name, len(sk.Hours), len(sk.Drains))
		case "showback":
			step := planner.DefaultShowbackStepS
			if v := up.fields.Get("step_ms"); v != "" {
				ms, err := strconv.ParseFloat(v, 64)
				if err != nil || ms < 1 || ms > 60000 {
					return &badUploadError{"time-share step: " + strconv.Quote(v) + " is not a number of milliseconds between 1 and 60,000"}
				}
				step = ms / 1000
			}
			m := planner.NewShowbackMeter(step)
			f, err := importers.ParseUsage(up.name, file, opt, m.Add)
			if err != nil {
				return err
			}
			u := m.Usage(up.name)
			u.SHA256 = f.SHA256
			doc, summary = u, fmt.Sprintf("%s: %d requests of %d tenants metered", up.name, u.Requests, len(u.Tenants))
		case "demand":
			m := planner.NewDemandMeter()
			f, err := importers.ParseTraffic(up.name, file, opt, m.Add)
			if err != nil {
				return err
			}
			d := m.Result(nil, up.name)
			d.SHA256 = f.SHA256
			doc, summary = d, fmt.Sprintf("%s: %d buckets, %d requests", up.name, d.Buckets, d.Requests)
		}
		return nil
	})
	errs := view.FormErrors{}
	if err != nil {
		drainUpload(c.Request())
		var ie *importers.Error
		var bu *badUploadError
		if !errors.As(err, &ie) && !errors.As(err, &bu) && !errors.Is(err, importers.ErrTooLarge) {
			return err
		}
		errs["file"] = err.Error()
	}
	// The version comes with the upload's fields: the body is read already.
	e := store.Edit{ReportID: r.ID, BaseVersion: r.Version, UserID: currentUser(c).ID, Action: kind + " imported", Section: sec}
	if v, ok := formVersion(fields); ok {
		e.BaseVersion = v
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "evidence-" + kind, Key: kind, Form: fields, Errs: errs,
		Edit: e, Prev: evidencePrev(in, sec), Next: doc, Changed: true,
		Doc:   sec,
		Flash: summary,
	})
}

// evidencePrev is the evidence of section sec as the report holds it.
func evidencePrev(in planner.Inputs, sec string) any {
	switch sec {
	case secTelemetry:
		return in.Telemetry
	case secSoak:
		return in.Soak
	case secShowback:
		return in.Showback
	case secDemand:
		return in.Demand
	}
	return nil
}

// importTelemetry aligns a GPU log with the matrix rows' windows: the first
// row starts at the form's start time and each row lasts its measured
// duration (the contract's row duration when the file has none), with the
// form's pause between rows, in the matrix's load order.
func importTelemetry(up evidenceUpload, file io.Reader, opt importers.EvidenceOptions, res planner.Result) (*planner.TelemetryInput, string, error) {
	if len(res.Matrix) == 0 {
		return nil, "", &badUploadError{"import the load test's result files first: telemetry is aligned to the matrix rows"}
	}
	var windows []planner.Window
	typed := strings.TrimSpace(up.fields.Get("start"))
	if typed == "" && view.RowsCarryStarts(res) {
		// Each row's window from its own file's start time.
		w, err := fileWindows(res)
		if err != nil {
			return nil, "", err
		}
		windows = w
	} else {
		start, err := time.Parse("2006-01-02T15:04:05", typed)
		if err != nil {
			if start, err = time.Parse("2006-01-02T15:04", typed); err != nil {
				return nil, "", &badUploadError{"first row's start: give the time the first row began (UTC), e.g. 2026-11-28T14:00:00 (the result files of these rows do not record their start times)"}
			}
		}
		pause := 0.0
		if v := up.fields.Get("pause_s"); v != "" {
			if pause, err = strconv.ParseFloat(v, 64); err != nil || pause < 0 {
				return nil, "", &badUploadError{"pause between rows: " + strconv.Quote(v) + " is not a number of seconds"}
			}
		}
		if windows, err = rowWindows(res, float64(start.Unix()), pause); err != nil {
			return nil, "", err
		}
	}
	a := planner.NewTelemetryAligner(windows)
	f, err := importers.ParseTelemetry(up.name, file, opt, func(s planner.GPUSample) error { a.Add(s); return nil })
	if err != nil {
		return nil, "", err
	}
	rates := make([]*float64, len(res.Matrix))
	for i, m := range res.Matrix {
		rates[i] = m.Row.OutputTokenRate
	}
	t := &planner.TelemetryInput{Source: up.name, SHA256: f.SHA256}
	t.IdlePowerW, t.IdleSamples = a.IdlePower()
	covered := 0
	for i, figs := range a.Result(rates, up.name) {
		if figs.Samples == 0 {
			continue
		}
		covered++
		t.Rows = append(t.Rows, planner.RowTelemetryInput{RowKey: planner.RowKey(res.Matrix[i].Row), Figs: figs})
	}
	if covered == 0 {
		first, last, _ := a.Span()
		return nil, "", &badUploadError{fmt.Sprintf("%s: none of its %d samples (%s to %s UTC) falls in a row's window (%s to %s UTC): check the first row's start and the log's UTC offset",
			up.name, a.Samples(), unixUTC(first), unixUTC(last), unixUTC(windows[0].Start), unixUTC(windows[len(windows)-1].End))}
	}
	summary := fmt.Sprintf("%s: %d samples, %d of %d rows covered", up.name, a.Samples(), covered, len(res.Matrix))
	for _, w := range f.Warnings {
		summary += "; " + w
	}
	return t, summary, nil
}

// fileWindows is each matrix row's window from its file's start time and
// its measured duration.
func fileWindows(res planner.Result) ([]planner.Window, error) {
	out := make([]planner.Window, len(res.Matrix))
	for i, m := range res.Matrix {
		d := m.Row.DurationS
		if d == nil || *d <= 0 {
			return nil, &badUploadError{fmt.Sprintf("row %d has no duration: its window cannot be placed", i+1)}
		}
		out[i] = planner.Window{Start: *m.Row.StartedAt, End: *m.Row.StartedAt + *d}
	}
	return out, nil
}

// rowWindows lays the matrix rows end to end from start.
func rowWindows(res planner.Result, start, pause float64) ([]planner.Window, error) {
	out := make([]planner.Window, len(res.Matrix))
	at := start
	for i, m := range res.Matrix {
		d := m.Row.DurationS
		if d == nil || *d <= 0 {
			return nil, &badUploadError{fmt.Sprintf("row %d has no duration: its window cannot be placed", i+1)}
		}
		out[i] = planner.Window{Start: at, End: at + *d}
		at += *d + pause
	}
	return out, nil
}

func unixUTC(v float64) string {
	return time.Unix(int64(v), 0).UTC().Format("2006-01-02 15:04:05")
}

// evidenceOf reads the report the user may edit and the :kind of evidence
// named, with the report section that holds it.
func (s *Server) evidenceOf(c echo.Context) (r store.Report, kind, sec string, err error) {
	if r, err = s.editableReport(c); err != nil {
		return r, "", "", err
	}
	kind = c.Param("kind")
	sec, ok := evidenceKinds[kind]
	if !ok {
		return r, "", "", echo.NewHTTPError(http.StatusNotFound, "no such evidence: "+kind)
	}
	return r, kind, sec, nil
}

// evidenceRemove drops one kind of evidence from the report.
func (s *Server) evidenceRemove(c echo.Context) error {
	r, kind, sec, err := s.evidenceOf(c)
	if err != nil {
		return err
	}
	rep, err := s.svc.Load(c.Request().Context(), r.ID)
	if err != nil {
		return err
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "evidence-" + kind, Key: kind,
		Edit: s.edit(c, r, kind+" removed", sec), Prev: evidencePrev(rep.In, sec), Changed: true,
		Doc:   sec,
		Flash: kind + " removed",
	})
}

// demandAccept replaces the report's demand scenarios with the ones
// proposed from production traffic; the lead may edit them after.
func (s *Server) demandAccept(c echo.Context) error {
	r, err := s.editableReport(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	in, err := s.inputs(ctx, r)
	if err != nil {
		return err
	}
	if in.Demand == nil || len(in.Demand.Proposed) == 0 {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "no proposed scenarios: import production traffic with at least one full day first")
	}
	scs := make([]planner.Scenario, len(in.Demand.Proposed))
	for i, p := range in.Demand.Proposed {
		scs[i] = p.Scenario
	}
	return s.saveSection(c, r, sectionSave{
		Anchor: "scenarios",
		Edit:   s.edit(c, r, "scenarios taken from production traffic ("+in.Demand.Source+")", reports.SecScenarios),
		Prev:   in.Scenarios, Next: scs,
		Doc:      reports.SecScenarios,
		Redirect: true, Flash: "scenarios taken from production traffic",
	})
}

// evidenceFor is the evidence section with a form state.
func evidenceFor(v view.Report, f view.SectionForm) templ.Component {
	return view.EvidenceSection(v, f)
}
