package web

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// dialFrom connects to addr from the loopback address src, so that many
// clients can be told apart by the per-client bound.
func dialFrom(t *testing.T, src, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("cannot dial from %s: %v", src, err)
	}
	return c
}

// untilClosed reads from c until the server closes it, sending one byte
// of drip every second meanwhile; it returns when that happened.
func untilClosed(c net.Conn, drip string, limit time.Duration) time.Duration {
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(io.Discard, c)
	}()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	i := 0
	for {
		select {
		case <-done:
			return time.Since(start)
		case <-t.C:
			if time.Since(start) > limit {
				c.Close()
				<-done
				return limit + time.Nanosecond
			}
			if drip != "" {
				c.Write([]byte{drip[i%len(drip)]})
				i++
			}
		}
	}
}

// 200 slow clients (headers a byte a second, a login body a byte a second,
// idle keep-alives) are each dropped within the stated timeout while
// /readyz keeps answering; a connection past the per-client bound is
// closed at once.
func TestSlowClientsDropped(t *testing.T) {
	st := mustOpenDB(t)
	l := DefaultLimits
	srv := NewHTTPServer(New(st, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{DataDir: t.TempDir()}), l)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(LimitConns(raw, l.PerClient))
	t.Cleanup(func() { srv.Close() })
	addr := raw.Addr().String()

	type kind struct {
		name   string
		send   string // sent at once
		drip   string // then a byte a second
		within time.Duration
	}
	kinds := []kind{
		{"slow headers", "GET /healthz HTTP/1.1\r\nHost: x\r\n", "X-Slow: y\r\n", l.Header},
		{"slow login body", "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\n", "email=a", l.Body},
		{"idle keep-alive", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "", l.Idle},
	}
	const clients = 200
	slack := 5 * time.Second
	took := make([][]time.Duration, len(kinds))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range clients {
		k := i % len(kinds)
		c := dialFrom(t, fmt.Sprintf("127.0.0.%d", 2+i%4), addr) // 50 per address, under the bound
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Write([]byte(kinds[k].send))
			d := untilClosed(c, kinds[k].drip, kinds[k].within+2*slack)
			mu.Lock()
			took[k] = append(took[k], d)
			mu.Unlock()
		}()
	}

	// Past the bound: 64 open connections from one address and the 4 of
	// the health-check reserve, the 69th is closed before it sends anything.
	var held []net.Conn
	for range l.PerClient + healthReserve {
		held = append(held, dialFrom(t, "127.0.0.9", addr))
	}
	extra := dialFrom(t, "127.0.0.9", addr)
	extra.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := extra.Read(make([]byte, 1)); err == nil || errors.Is(err, errDeadline(err)) {
		t.Errorf("connection %d from one address not closed at once: %v", l.PerClient+healthReserve+1, err)
	}
	for _, c := range held {
		c.Close()
	}

	// /readyz meanwhile, from an address of its own.
	var lat []time.Duration
	stop := make(chan struct{})
	readyDone := make(chan struct{})
	go func() {
		defer close(readyDone)
		cl := &http.Client{Timeout: 5 * time.Second}
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			t0 := time.Now()
			res, err := cl.Get("http://" + addr + "/readyz")
			if err != nil {
				t.Errorf("/readyz: %v", err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Errorf("/readyz: %d", res.StatusCode)
			}
			lat = append(lat, time.Since(t0))
		}
	}()
	wg.Wait()
	close(stop)
	<-readyDone

	for k, ds := range took {
		slices.Sort(ds)
		worst := ds[len(ds)-1]
		t.Logf("%s: %d clients dropped after %v to %v (timeout %v)", kinds[k].name, len(ds), ds[0].Round(time.Millisecond), worst.Round(time.Millisecond), kinds[k].within)
		if worst > kinds[k].within+slack {
			t.Errorf("%s: a client held %v, past its timeout of %v", kinds[k].name, worst, kinds[k].within)
		}
	}
	if len(lat) == 0 {
		t.Fatal("no /readyz answer")
	}
	slices.Sort(lat)
	t.Logf("/readyz during the slow clients: %d answers, median %v, worst %v", len(lat), lat[len(lat)/2], lat[len(lat)-1])
	// generous: the target is 100 ms; a loaded test machine may stall
	if lat[len(lat)/2] > time.Second {
		t.Errorf("/readyz median %v", lat[len(lat)/2])
	}
}

// errDeadline is err when it is a timeout (the connection was not closed).
func errDeadline(err error) error {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return err
	}
	return errors.New("not a timeout")
}

// A large body that keeps coming is not cut off by the body timeout; the
// handler's work after the body is not cut off either.
func TestUploadBodyKeepsItsDeadlineMoving(t *testing.T) {
	// Body is six of the writer's pauses, so a loaded machine that stretches
	// a pause does not make the client look stalled.
	l := Limits{Header: time.Second, Idle: time.Second, Body: 600 * time.Millisecond, BodyStep: 1 << 10, Upload: time.Minute, Write: time.Minute, PerClient: 4}
	got := make(chan int64, 1)
	srv := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, err := io.Copy(io.Discard, r.Body)
		if err != nil {
			n = -1
		}
		time.Sleep(700 * time.Millisecond) // a commit after the body, longer than Body
		if r.Context().Err() != nil {
			n = -2
		}
		got <- n
		w.WriteHeader(http.StatusCreated)
	}), l)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go srv.Serve(LimitConns(ln, l.PerClient))
	defer srv.Close()
	pr, pw := io.Pipe()
	go func() {
		for range 20 { // 20 KiB over 2 s: longer than Body, faster than a step per Body
			pw.Write(make([]byte, 1<<10))
			time.Sleep(100 * time.Millisecond)
		}
		pw.Close()
	}()
	res, err := http.Post("http://"+ln.Addr().String()+"/api/v1/reports/1/results", "application/octet-stream", bufio.NewReader(pr))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if n := <-got; n != 20<<10 || res.StatusCode != http.StatusCreated {
		t.Errorf("upload: read %d bytes, status %d", n, res.StatusCode)
	}
}
