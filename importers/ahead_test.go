package importers

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
)

// writeTemp writes data to a file in a temporary directory.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParseFileReadsAhead reads a report of many chunks from a regular file
// (read and hashed in a goroutine of its own) and from a plain reader:
// the two give the same rows, and the hash and size are the file's.
func TestParseFileReadsAhead(t *testing.T) {
	var buf bytes.Buffer
	if err := guidellmgen.Write(&buf, guidellmgen.Config{TargetBytes: 6 << 20}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	if len(data) < 4*aheadChunk*aheadChunks/2 {
		t.Fatalf("report of %d bytes: too small to pass through every chunk", len(data))
	}
	path := writeTemp(t, "benchmarks.json", data)
	before := runtime.NumGoroutine()
	got, err := ParseFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("benchmarks.json", bytes.NewReader(data), Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if got.Source.SHA256 != hex.EncodeToString(sum[:]) || got.Bytes != int64(len(data)) {
		t.Errorf("sha256 %s, %d bytes; want %x, %d bytes", got.Source.SHA256, got.Bytes, sum, len(data))
	}
	if len(got.Rows) != 5 || !reflect.DeepEqual(got, want) {
		t.Errorf("read ahead from the file: %d rows, differs from the plain reading (%d rows)", len(got.Rows), len(want.Rows))
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the parse, %d before: the reading goroutine was left running", n, before)
	}
}

// TestParseFileReadsAheadStops checks the ways a reading ahead ends early:
// a refusal in the first megabyte, the size limit, and a cancelled
// context; none leaves the reading goroutine running.
func TestParseFileReadsAheadStops(t *testing.T) {
	big := writeTemp(t, "big.json", []byte(`{"foo": "`+strings.Repeat("x", 8<<20)+`"}`))
	var buf bytes.Buffer
	if err := guidellmgen.Write(&buf, guidellmgen.Config{TargetBytes: 8 << 20}); err != nil {
		t.Fatal(err)
	}
	report := writeTemp(t, "benchmarks.json", buf.Bytes())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name, path string
		opt        Options
		want       func(error) bool
	}{
		{"not recognised", big, Options{}, func(err error) bool { return err != nil && strings.Contains(err.Error(), "first megabyte") }},
		{"too large", report, Options{MaxBytes: 3 << 20}, func(err error) bool { return errors.Is(err, ErrTooLarge) }},
		{"cancelled", report, Options{Context: cancelled}, func(err error) bool { return errors.Is(err, context.Canceled) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			start := time.Now()
			_, err := ParseFile(c.path, c.opt)
			if !c.want(err) {
				t.Errorf("err = %v", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
			// A goroutine that has said it is done may still be counted
			// for a moment while it returns: give it a second to go, more
			// than a reader left running would ever need to stop.
			n := runtime.NumGoroutine()
			for wait := time.Now().Add(time.Second); n > before && time.Now().Before(wait); n = runtime.NumGoroutine() {
				time.Sleep(10 * time.Millisecond)
			}
			if n > before {
				t.Errorf("%d goroutines after the parse, %d before: the reading goroutine was left running", n, before)
			}
		})
	}
}

// failingWriter fails once it was given more than n bytes.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n -= len(p); w.n < 0 {
		return 0, errDiskFull
	}
	return len(p), nil
}

// TestParseCopy keeps the raw bytes while parsing (Options.Copy), read
// ahead from a regular file and read plainly: the copy is the file, and a
// failed write stops the reading with its error.
func TestParseCopy(t *testing.T) {
	var buf bytes.Buffer
	if err := guidellmgen.Write(&buf, guidellmgen.Config{TargetBytes: 3 << 20}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	path := writeTemp(t, "benchmarks.json", data)
	var fromFile, fromReader bytes.Buffer
	if _, err := ParseFile(path, Options{Copy: &fromFile}); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("benchmarks.json", bytes.NewReader(data), Options{Copy: &fromReader}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fromFile.Bytes(), data) || !bytes.Equal(fromReader.Bytes(), data) {
		t.Errorf("copies of %d and %d bytes differ from the file of %d", fromFile.Len(), fromReader.Len(), len(data))
	}
	for _, parse := range []func(Options) error{
		func(o Options) error { _, err := ParseFile(path, o); return err },
		func(o Options) error { _, err := Parse("benchmarks.json", bytes.NewReader(data), o); return err },
	} {
		if err := parse(Options{Copy: &failingWriter{n: 1 << 20}}); !errors.Is(err, errDiskFull) {
			t.Errorf("err = %v, want the write's error", err)
		}
	}
}
