package importers

import (
	"io"
	"os"
)

// A regular file is read and hashed ahead of the parser, in a goroutine of
// its own: SHA-256 costs about as much as the parsing, so the two run side
// by side on two cores. Other sources (an upload) are read in the caller's
// goroutine, where a read that waits on the network can be abandoned.

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
	buf  []byte // the chunk being read, returned to free when used up
	err  error  // the error that followed the last chunk
	in   *input
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

// startAhead starts reading in.src ahead of the parser.
func startAhead(in *input) *ahead {
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
		if a.buf != nil {
			a.free <- a.buf // never blocks: free holds every chunk
			a.buf = nil
		}
		c := <-a.full
		a.buf, a.cur, a.err = c.buf, c.buf[:c.n], c.err
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// next hands the parser the rest of the current chunk, or the next chunk,
// whole (no copy). The chunk handed before is released: the parser reads
// each chunk before it asks for the next.
func (a *ahead) next() ([]byte, error) {
	if ctx := a.in.ctx; ctx != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for {
		if len(a.cur) > 0 {
			b := a.cur
			a.cur = nil
			return b, nil
		}
		if a.err != nil {
			return nil, a.err
		}
		if a.buf != nil {
			a.free <- a.buf
			a.buf = nil
		}
		c := <-a.full
		a.buf, a.cur, a.err = c.buf, c.buf[:c.n], c.err
	}
}

// close stops the reading goroutine and waits for it, so that the source
// is no longer read once Parse returns.
func (a *ahead) close() {
	select {
	case <-a.stop:
	default:
		close(a.stop)
	}
	<-a.done
}
