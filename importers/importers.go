package importers

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"capplan/planner"
)

// ErrTooLarge is returned (wrapped) when a file exceeds Options.MaxBytes.
var ErrTooLarge = errors.New("file too large")

// Options tunes Parse.
type Options struct {
	// MaxBytes is the largest input accepted, checked while reading; 0 means unlimited.
	MaxBytes int64
	// Context stops the reading when it is done (a client gone, a signal):
	// Parse then returns its error (context.Canceled) within one read of
	// the input. nil means never.
	Context context.Context
	// Copy, when set, is written every byte read, in order, as it is read
	// (ahead of the parser for a regular file, beside the hashing), so the
	// raw file can be kept without reading it twice. A failed write stops
	// the reading with its error.
	Copy io.Writer
}

// File is the result of importing one benchmark file.
type File struct {
	Source   planner.Source    `json:"source"`   // file name, sha256, format, generation, tool version
	Model    string            `json:"model"`    // the model the file names, "" when it names none
	Rows     []planner.Row     `json:"rows"`     // one per tested load level, in file order
	Warnings []planner.Warning `json:"warnings"` // warnings about the file as a whole
	Bytes    int64             `json:"bytes"`    // size of the input in bytes
	// Experiment is set for a genai-bench experiment_metadata.json, which
	// holds no rows: it completes the run files of the same upload
	// (ApplyExperiment) and is not kept itself.
	Experiment *Experiment `json:"-"`
	// ServerMetrics is set for an AIPerf server_metrics_export.json, which
	// holds no rows either: it completes the AIPerf result of its run in the
	// same upload (ApplyServerMetrics) and is not kept itself.
	ServerMetrics *ServerMetrics `json:"-"`
	// BenchmarkID is an AIPerf result's benchmark_id, which its
	// server-metrics export repeats.
	BenchmarkID string `json:"-"`
}

// Error is an import failure; its text starts with the file name.
type Error struct {
	File string // the file name given to Parse
	Msg  string // what was wrong
	Err  error  // the underlying cause, if any
}

// Error returns "FILE: MSG".
func (e *Error) Error() string { return e.File + ": " + e.Msg }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// ParseFile opens path and imports it; the Source.File is the base name.
func ParseFile(path string, opt Options) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: filepath.Base(path), Msg: "cannot open: " + err.Error(), Err: err}
	}
	defer f.Close()
	return Parse(filepath.Base(path), f, opt)
}

// Parse detects the format of r from its content, imports it and hashes it.
// Every returned Row has its Source filled. Errors are *Error values whose
// text starts with name; ErrTooLarge is wrapped when MaxBytes is exceeded.
func Parse(name string, r io.Reader, opt Options) (f *File, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, &Error{File: name, Msg: fmt.Sprintf("internal error while reading the file: %v", p)}
		}
	}()
	return parse(name, r, opt)
}

// parse is Parse without the panic guard (fuzz targets call it directly).
func parse(name string, r io.Reader, opt Options) (*File, error) {
	in := newInput(r, opt)
	defer in.close()
	f, err := parseInput(in)
	if err == nil {
		err = in.drain()
	}
	if cerr := in.close(); err == nil { // the reading is over: in.n and in.h are final
		err = cerr
	}
	if err != nil {
		return nil, wrapErr(name, err)
	}
	f.Bytes = in.n
	f.Source.File = name
	f.Source.SHA256 = hex.EncodeToString(in.h.Sum(nil))
	if f.Experiment != nil {
		f.Experiment.File, f.Experiment.SHA256 = name, f.Source.SHA256
	}
	if f.ServerMetrics != nil {
		f.ServerMetrics.File, f.ServerMetrics.Engine.Source = name, name
	}
	for i := range f.Rows {
		f.Rows[i].Source = f.Source
		f.Rows[i].Index = i
		if e := f.Rows[i].Engine; e != nil && e.Source == "" {
			e.Source = name
		}
		if f.Rows[i].Model == "" {
			f.Rows[i].Model = f.Model
		}
		if f.Rows[i].Warnings == nil {
			f.Rows[i].Warnings = []planner.Warning{}
		}
	}
	modelUnknown(f)
	if f.Warnings == nil {
		f.Warnings = []planner.Warning{}
	}
	return f, nil
}

// modelUnknown warns, in every format alike, when neither the file nor any
// of its rows names the model; a format's own warning is kept.
func modelUnknown(f *File) {
	if f.Model != "" || f.Experiment != nil || f.ServerMetrics != nil { // the last two hold no rows of their own
		return
	}
	for _, r := range f.Rows {
		if r.Model != "" {
			return
		}
	}
	for _, w := range f.Warnings {
		if w.Code == "model-unknown" {
			return
		}
	}
	msg := "the file does not name the model; enter it by hand"
	if fi, ok := formatInfo(f.Source.Format); ok && fi.modelHint != "" {
		msg = "the file does not name the model (" + fi.modelHint + "); enter it by hand"
	}
	f.Warnings = append(f.Warnings, planner.Warning{Code: "model-unknown", Message: msg})
}

// wrapErr turns err into an *Error naming the file.
func wrapErr(name string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{File: name, Msg: "reading stopped: " + err.Error(), Err: err}
	}
	var te *truncatedError
	if errors.As(err, &te) {
		return &Error{File: name, Msg: te.Error(), Err: err}
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{File: name, Msg: (&truncatedError{}).Error(), Err: err}
	}
	return &Error{File: name, Msg: err.Error(), Err: err}
}

// input reads the source while counting, limiting and hashing it.
type input struct {
	src  io.Reader
	ctx  context.Context
	max  int64
	n    int64
	h    hash.Hash
	copy io.Writer
	br   *bufio.Reader
	ah   *ahead // reading ahead, for a regular file
}

func newInput(r io.Reader, opt Options) *input {
	in := &input{src: r, max: opt.MaxBytes, ctx: opt.Context, h: sha256.New()}
	var src io.Reader = readerFunc(in.read)
	if isRegularFile(r) {
		in.ah = startAhead(in, opt.Copy)
		src = in.ah
	} else {
		in.copy = opt.Copy
	}
	in.br = bufio.NewReaderSize(src, 256<<10)
	return in
}

// lexer returns a lexer reading the rest of the input. Reading ahead, it
// takes the chunks read whole rather than copying them.
func (in *input) lexer() *lexer {
	l := newLexer(in.br)
	if in.ah != nil {
		n := in.br.Buffered()
		head, _ := in.br.Peek(n)
		if len(l.buf) < n {
			l.buf = make([]byte, n)
		}
		l.end = copy(l.buf, head)
		in.br.Discard(n)
		l.chunks = in.ah
	}
	return l
}

// close stops the reading ahead, if any, and returns the error of its
// copy; it may be called more than once.
func (in *input) close() error {
	if in.ah != nil {
		return in.ah.close()
	}
	return nil
}

// read is the counted, limited, hashed read of the source.
func (in *input) read(p []byte) (int, error) {
	if in.ctx != nil {
		if err := in.ctx.Err(); err != nil {
			return 0, err
		}
	}
	if in.max > 0 {
		// read one byte past the limit so an exact-size file passes
		if rem := in.max + 1 - in.n; int64(len(p)) > rem {
			p = p[:rem]
		}
	}
	n, err := in.src.Read(p)
	in.n += int64(n)
	in.h.Write(p[:n])
	if in.copy != nil && n > 0 {
		if _, werr := in.copy.Write(p[:n]); werr != nil {
			return n, werr
		}
	}
	if in.max > 0 && in.n > in.max {
		return n, fmt.Errorf("%w: larger than the limit of %d bytes", ErrTooLarge, in.max)
	}
	return n, err
}

// drain reads what is left so the hash and size cover the whole file; only
// whitespace may remain.
func (in *input) drain() error {
	buf := make([]byte, 32<<10)
	for {
		n, err := in.br.Read(buf)
		for _, c := range buf[:n] {
			if !isSpace(c) {
				return fmt.Errorf("unexpected data after the end of the document")
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
