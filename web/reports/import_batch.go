package reports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"capplan/importers"
	"capplan/planner"
	"capplan/web/metrics"
	"capplan/web/store"
)

// ImportBatch is the one path by which result files enter a report, used by
// the browser upload, the HTTP API, the command line and the demo seed.
//
// Add streams each file through importers.Parse while writing it to a
// temporary file in the data directory (no file is held in memory whole);
// Commit then stores every file with its rows in one transaction and moves
// the raw files to their content addresses. Any failure leaves nothing
// behind: Close removes the temporary files not committed.
type ImportBatch struct {
	blobs blobs
	max   int64
	files []stagedFile
	// Candidate is the candidate whose matrix the files feed; 0 for the
	// report's main matrix.
	Candidate int64
	// OnFile, when set, is told the outcome of each file (one of the
	// metrics package's outcomes) with its format and size.
	OnFile func(format, outcome string, bytes int64)
	// Context, when set, stops the reading of a file once it is done (the
	// client went away, the server is stopping): Add then returns a
	// *CancelledError within one read of the input and keeps nothing.
	Context context.Context
	// experiments are the genai-bench experiment_metadata.json files of
	// the batch: read, never kept, applied to the run files at Commit.
	experiments []*importers.Experiment
	applied     bool
	// serverMetrics are AIPerf's server_metrics_export.json files of the
	// batch: read, never kept, applied to their runs' rows at Commit.
	serverMetrics []*importers.ServerMetrics
	serverApplied bool
}

// told passes one file's outcome to OnFile.
func (b *ImportBatch) told(format, outcome string, bytes int64) {
	if b.OnFile != nil {
		b.OnFile(format, outcome, bytes)
	}
}

// stagedFile is a parsed file waiting in its temporary file, held open
// (and so locked) until the batch commits or closes.
type stagedFile struct {
	f   *importers.File
	tmp string
	fd  *os.File
}

// NewImportBatch starts a batch whose raw files go to dataDir; maxBytes
// limits each file (0: no limit).
func NewImportBatch(dataDir string, maxBytes int64) *ImportBatch {
	return &ImportBatch{blobs: blobs{dir: dataDir}, max: maxBytes}
}

// Len is the number of files added so far (an experiment's metadata file
// counts, though it is not kept).
func (b *ImportBatch) Len() int { return len(b.files) + len(b.experiments) }

// Files returns the parsed files, in the order added.
func (b *ImportBatch) Files() []*importers.File {
	out := make([]*importers.File, len(b.files))
	for i, s := range b.files {
		out[i] = s.f
	}
	return out
}

// TooLargeError refuses a file over the size limit.
type TooLargeError struct {
	File  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the upload limit of %s (%d bytes)", e.File, planner.ByteSize(e.Limit), e.Limit)
}

// CancelledError is a file whose reading stopped before its end because
// the batch's context was done.
type CancelledError struct {
	File  string
	Read  int64 // bytes read before it stopped
	Cause error
}

func (e *CancelledError) Error() string {
	return fmt.Sprintf("%s: the upload stopped after %s: %v", e.File, planner.ByteSize(e.Read), e.Cause)
}

func (e *CancelledError) Unwrap() error { return e.Cause }

// ErrorKind: the request did not arrive whole.
func (e *CancelledError) ErrorKind() Kind { return KindBadRequest }

// SameFileError refuses a batch that holds one file twice.
type SameFileError struct{ First, Second, SHA256 string }

func (e *SameFileError) Error() string {
	return fmt.Sprintf("%s and %s are the same file (sha256 %s…); send it once", e.First, e.Second, e.SHA256[:12])
}

// Add reads one file from r to its end: parses it, hashes it and keeps the
// raw bytes in a temporary file. name is the file's name as the user knows
// it (any folder part is dropped). A zip or tar archive (a genai-bench
// experiment folder, say) is read entry by entry, each entry a file of the
// batch named by its path inside the archive (import_archive.go).
func (b *ImportBatch) Add(name string, r io.Reader) error {
	name = cleanFileName(name)
	r, kind, err := sniffArchive(r)
	if err != nil {
		return fmt.Errorf("reading %s: %w", name, err)
	}
	if kind != "" {
		return b.addArchive(name, kind, r)
	}
	return b.add(name, r)
}

// add is Add for one file whose name is already clean.
func (b *ImportBatch) add(name string, r io.Reader) error {
	tmp, err := b.blobs.temp()
	if err != nil {
		return err
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := &recordingWriter{w: tmp}
	// the raw copy is written as the file is read (for a regular file, in
	// the goroutine that reads and hashes it ahead of the parser)
	f, err := importers.Parse(name, r, importers.Options{MaxBytes: b.max, Copy: w, Context: b.Context})
	switch {
	case err != nil && b.Context != nil && b.Context.Err() != nil:
		b.told("", metrics.Cancelled, w.n)
		return &CancelledError{File: name, Read: w.n, Cause: context.Cause(b.Context)}
	case w.err != nil:
		b.told("", metrics.Refused, w.n)
		return fmt.Errorf("keeping %s: %w", name, w.err)
	case errors.Is(err, importers.ErrTooLarge):
		b.told("", metrics.TooLarge, w.n)
		return &TooLargeError{File: name, Limit: b.max}
	case err != nil:
		b.told("", metrics.Unreadable, w.n)
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("keeping %s: %w", name, err)
	}
	if w.n != f.Bytes {
		return fmt.Errorf("keeping %s: wrote %d bytes of %d", name, w.n, f.Bytes)
	}
	if f.Experiment != nil {
		// read for what it says of the runs, never kept: its command
		// line can carry a credential
		b.told(f.Source.Format, metrics.Imported, f.Bytes)
		b.experiments = append(b.experiments, f.Experiment)
		return nil
	}
	if f.ServerMetrics != nil {
		// read for what the engine said of the run, kept in its rows
		b.told(f.Source.Format, metrics.Imported, f.Bytes)
		b.serverMetrics = append(b.serverMetrics, f.ServerMetrics)
		return nil
	}
	for _, s := range b.files {
		if s.f.Source.SHA256 == f.Source.SHA256 {
			b.told(f.Source.Format, metrics.Duplicate, f.Bytes)
			return &SameFileError{First: s.f.Source.File, Second: name, SHA256: f.Source.SHA256}
		}
	}
	keep = true
	b.files = append(b.files, stagedFile{f: f, tmp: tmp.Name(), fd: tmp})
	return nil
}

// Commit stores every file of the batch and its rows in one transaction
// with one history entry (e.Action and e.Section default to "results
// imported" and "imports"; e.After to the list of files), then moves the
// raw files to their content addresses. It returns the stored imports in
// the order added. A failed Commit stores nothing and may be retried.
func (b *ImportBatch) Commit(ctx context.Context, st *store.Store, e store.Edit) ([]store.Import, error) {
	if err := b.applyExperiments(); err != nil {
		return nil, err
	}
	if !b.serverApplied && len(b.serverMetrics) > 0 {
		if err := importers.ApplyServerMetrics(b.Files(), b.serverMetrics); err != nil {
			return nil, err
		}
		b.serverApplied = true
	}
	if len(b.files) == 0 {
		return nil, ErrNoFiles
	}
	if e.Action == "" {
		e.Action = "results imported"
	}
	if e.Section == "" {
		e.Section = "imports"
	}
	batch := make([]store.ImportWithRows, len(b.files))
	var lines []string
	for i, s := range b.files {
		batch[i] = store.ImportWithRows{Import: importRecord(e.ReportID, s.f), Rows: s.f.Rows}
		batch[i].Import.CandidateID = b.Candidate
		lines = append(lines, DescribeImport(batch[i].Import, len(s.f.Rows)))
	}
	if e.After == "" {
		e.After = strings.Join(lines, "\n")
	}
	// The raw files take their content addresses first: an import that
	// commits has its raw file, and one that does not leaves none.
	var created []string
	undo := func() {
		for _, sha := range created {
			b.blobs.unkeep(context.WithoutCancel(ctx), st, sha)
		}
	}
	for _, s := range b.files {
		made, err := b.blobs.keep(s.tmp, s.f.Source.SHA256)
		if err != nil {
			undo()
			return nil, fmt.Errorf("keeping the raw file of %s: %w", s.f.Source.File, err)
		}
		if made {
			created = append(created, s.f.Source.SHA256)
		}
	}
	ids, err := st.AddImports(ctx, e, batch)
	if err != nil {
		undo()
		var dup *store.DuplicateImportError
		isDup := errors.As(err, &dup)
		var conflict *store.ConflictError
		for _, s := range b.files {
			if errors.As(err, &conflict) {
				break // a stale version: retried or answered, not an outcome of the file
			}
			outcome := metrics.Refused
			if isDup && dup.First.SHA256 == s.f.Source.SHA256 {
				outcome = metrics.Duplicate
			}
			b.told(s.f.Source.Format, outcome, s.f.Bytes)
		}
		return nil, err
	}
	for _, s := range b.files {
		b.told(s.f.Source.Format, metrics.Imported, s.f.Bytes)
		// An import of the same content elsewhere that failed meanwhile
		// may have removed the address it made: give it back.
		if _, err := b.blobs.keep(s.tmp, s.f.Source.SHA256); err != nil {
			return nil, fmt.Errorf("%s was imported, but its raw file could not be kept: %w", s.f.Source.File, err)
		}
	}
	out := make([]store.Import, len(batch))
	for i := range batch {
		out[i] = batch[i].Import
		out[i].ID = ids[i]
		out[i].Rows = len(batch[i].Rows)
	}
	b.Close() // the temporary names go; the content addresses stay
	return out, nil
}

// Close removes the temporary files of a batch not committed (and the
// temporary names of one committed), then lets go of their locks.
func (b *ImportBatch) Close() {
	for _, s := range b.files {
		os.Remove(s.tmp)
		s.fd.Close()
	}
	b.files = nil
}

// importRecord is the store's record of one parsed file.
func importRecord(reportID int64, f *importers.File) store.Import {
	return store.Import{
		ReportID:      reportID,
		FileName:      f.Source.File,
		SHA256:        f.Source.SHA256,
		Format:        f.Source.Format,
		FormatVersion: f.Source.FormatVersion,
		ToolVersion:   f.Source.ToolVersion,
		Model:         f.Model,
		SizeBytes:     f.Bytes,
		Warnings:      f.Warnings,
	}
}

// DescribeImport is one line of the history about an import.
func DescribeImport(im store.Import, rows int) string {
	return fmt.Sprintf("%s (%s %s, %s, sha256 %s…)", im.FileName, im.Format, im.FormatVersion, planner.Plural(rows, "row", "rows"), im.SHA256[:12])
}

// cleanFileName keeps the base name of what a client called the file.
func cleanFileName(name string) string {
	name = filepath.Base(strings.ReplaceAll(strings.TrimSpace(name), `\`, "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, name)
	if name == "" || name == "." || name == "/" {
		name = "upload"
	}
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200])
	}
	return name
}

// recordingWriter passes writes on and keeps the first error, so a full
// disk is told apart from a bad file.
type recordingWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	r.n += int64(n)
	r.err = err
	return n, err
}

// CommitLatest commits the batch into the report as the given user, based
// on the report's current version: for callers with no form version (the
// API, the command line). The commits of one process into one report take
// turns, and a change by someone else in between (another process, a
// browser edit) is retried until the batch commits, fails for its own
// content, or ctx ends: an upload without a stated version never fails
// for having come at the same time as another.
func CommitLatest(ctx context.Context, st *store.Store, batch *ImportBatch, reportID, userID int64) ([]store.Import, error) {
	lock := commitLock(reportID)
	for attempt := 0; ; attempt++ {
		lock.Lock()
		r, err := st.Report(ctx, reportID)
		if err != nil {
			lock.Unlock()
			return nil, err
		}
		ims, err := batch.Commit(ctx, st, store.Edit{ReportID: reportID, BaseVersion: r.Version, UserID: userID})
		lock.Unlock()
		var ce *store.ConflictError
		if !errors.As(err, &ce) || attempt >= maxCommitAttempts || ctx.Err() != nil {
			return ims, err
		}
		// another writer came between the read and the commit: again,
		// after a short pause that grows with the attempts
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(time.Duration(min(attempt+1, 20)) * 5 * time.Millisecond):
		}
	}
}

// maxCommitAttempts bounds the retries of CommitLatest (about 10 s of
// another writer committing without pause).
const maxCommitAttempts = 100

// commitLocks holds one mutex per report that CommitLatest has committed
// into: the commits of this process into one report take turns.
var commitLocks sync.Map // int64 -> *sync.Mutex

func commitLock(reportID int64) *sync.Mutex {
	m, _ := commitLocks.LoadOrStore(reportID, &sync.Mutex{})
	return m.(*sync.Mutex)
}
