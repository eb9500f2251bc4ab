package importers

import (
	"io"
	"os"
	"sync"
)

// A regular file is read and hashed ahead of the parser, in a goroutine of
// its own: SHA-256 costs about as much as the parsing, so the two run side
// by side on two cores. With Options.Copy, a third goroutine writes each
// chunk once the parser is done with it, so keeping the raw file overlaps
// the reading instead of following it. Other sources (an upload) are read
// in the caller's goroutine, where a read that waits on the network can be
// abandoned.

const (
	aheadChunk  = 256 << 10 // bytes per read of the file
	aheadChunks = 8         // chunks in flight: 2 MB at most
)

// chunk is one read of the source: its bytes, then the error that ended it.
type chunk struct {
	buf []byte
	n   int
	err error
}

// ahead hands the parser the chunks read (counted, limited and hashed by
// input.read) in another goroutine.
type ahead struct {
	full chan chunk
	free chan []byte
	stop chan struct{}
	done chan struct{}
	cur  []byte // what is left of the chunk being read
	buf  []byte // the chunk being read, released when used up
	n    int    // the bytes of buf read from the file
	err  error  // the error that followed the last chunk
	in   *input

	// with a copy: chunks the parser is done with, in file order
	copyq    chan chunk
	copyDone chan struct{}
	copyMu   sync.Mutex
	copyErr  error // the first failed write of the copy
}

// isRegularFile tells a regular file, whose reads never wait for long,
// from a pipe, a device or any other reader.
func isRegularFile(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}

// startAhead starts reading in.src ahead of the parser, and writing the
// copy to w when it is not nil.
func startAhead(in *input, w io.Writer) *ahead {
	a := &ahead{
		full: make(chan chunk, aheadChunks),
		free: make(chan []byte, aheadChunks),
		stop: make(chan struct{}),
		done: make(chan struct{}),
		in:   in,
	}
	for range aheadChunks {
		a.free <- make([]byte, aheadChunk)
	}
	if w != nil {
		a.copyq = make(chan chunk, aheadChunks)
		a.copyDone = make(chan struct{})
		go a.copy(w)
	}
	go a.run()
	return a
}

// run reads until the end of the source, an error, or close.
func (a *ahead) run() {
	defer close(a.done)
	for {
		var buf []byte
		select {
		case buf = <-a.free:
		case <-a.stop:
			return
		}
		n, err := a.in.read(buf)
		if err == nil {
			err = a.copyFailed()
		}
		select {
		case a.full <- chunk{buf: buf, n: n, err: err}:
		case <-a.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// copy writes the chunks the parser released, in order, then frees them.
func (a *ahead) copy(w io.Writer) {
	defer close(a.copyDone)
	for c := range a.copyq {
		if a.copyFailed() == nil {
			if _, err := w.Write(c.buf[:c.n]); err != nil {
				a.copyMu.Lock()
				a.copyErr = err
				a.copyMu.Unlock()
			}
		}
		a.free <- c.buf
	}
}

// copyFailed returns the error of the copy, if a write failed.
func (a *ahead) copyFailed() error {
	if a.copyq == nil {
		return nil
	}
	a.copyMu.Lock()
	defer a.copyMu.Unlock()
	return a.copyErr
}

// release hands the chunk the parser is done with to the copy, or frees it.
func (a *ahead) release() {
	if a.buf == nil {
		return
	}
	if a.copyq != nil {
		a.copyq <- chunk{buf: a.buf, n: a.n} // never blocks: it has room for every chunk
	} else {
		a.free <- a.buf // never blocks: free holds every chunk
	}
	a.buf = nil
}

// receive waits for the next chunk.
func (a *ahead) receive() {
	a.release()
	c := <-a.full
	a.buf, a.n, a.cur, a.err = c.buf, c.n, c.buf[:c.n], c.err
}

// Read implements io.Reader for the parser. The context is checked on
// every call, so a cancelled reading stops within one read, as without
// reading ahead.
func (a *ahead) Read(p []byte) (int, error) {
	if ctx := a.in.ctx; ctx != nil {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		a.receive()
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// close stops the reading goroutine and waits for it, and for the copy to
// be written, so that the source is no longer read, nor the copy written,
// once Parse returns. It returns the error of the copy.
func (a *ahead) close() error {
	select {
	case <-a.stop:
	default:
		close(a.stop)
	}
	<-a.done
	if a.copyq != nil {
		if a.err == io.EOF {
			a.release() // the last chunk, read whole
		}
		close(a.copyq)
		<-a.copyDone
		a.copyq = nil
	}
	return a.copyErr
}
