package reports

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// TestImportBatchStopsWhenItsContextIsDone feeds a result file of 8 GB,
// generated as it is read, and cancels the batch's context once the parse
// is well under way: Add returns a *CancelledError (context.Canceled)
// within a second and no temporary file stays behind.
func TestImportBatchStopsWhenItsContextIsDone(t *testing.T) {
	dir := t.TempDir()
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(guidellmgen.Write(pw, guidellmgen.Config{Loads: []float64{1, 2, 4, 8}, TargetBytes: 8 << 30}))
	}()
	defer pr.CloseWithError(errors.New("test over"))
	src := &countingReader{r: pr}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	batch := NewImportBatch(dir, 0)
	batch.Context = ctx
	var outcome string
	batch.OnFile = func(_, o string, _ int64) { outcome = o }
	done := make(chan error, 1)
	go func() { done <- batch.Add("endless.json", src) }()

	deadline := time.Now().Add(time.Minute)
	for src.n.Load() < 4<<20 { // the parse is under way
		if time.Now().After(deadline) {
			t.Fatalf("read %d bytes in a minute", src.n.Load())
		}
		select {
		case err := <-done:
			t.Fatalf("Add ended before it was cancelled: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, tempPattern)); len(tmp) != 1 {
		t.Fatalf("temporary files while receiving: %v", tmp)
	}
	cancel()
	cancelled := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("Add still reading 10 s after its context was cancelled (%d bytes read)", src.n.Load())
	}
	if took := time.Since(cancelled); took > time.Second {
		t.Errorf("Add stopped %v after its context was cancelled, want within 1 s", took)
	}
	var ce *CancelledError
	if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) || ce.Read < 4<<20 {
		t.Errorf("Add after cancelling: %v, want a *CancelledError wrapping context.Canceled", err)
	}
	if KindOf(err) != KindBadRequest || outcome != "cancelled" {
		t.Errorf("a cancelled upload: kind %v, outcome %q", KindOf(err), outcome)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, tempPattern)); len(tmp) != 0 || batch.Len() != 0 {
		t.Errorf("left behind: temporary files %v, %d files in the batch", tmp, batch.Len())
	}
}
