package web

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"

	"capplan/static"
)

// assets serves the embedded files under /static/. Their URLs carry a
// content checksum (static.Path), so they are cached for ever. Text assets
// (CSS, JS, licences) go out gzip-compressed to clients that accept it,
// each compressed once, at the best level, on first request: ECharts is
// 1.1 MB as is and 0.37 MB compressed.
type assets struct {
	files http.Handler
	mu    sync.Mutex
	gz    map[string]*gzAsset // by file name; the embedded set bounds it
}

type gzAsset struct {
	once  sync.Once
	body  []byte // nil when the file is not there or not worth compressing
	ctype string
}

func newAssets() *assets {
	return &assets{files: http.StripPrefix("/static/", http.FileServerFS(static.FS)), gz: map[string]*gzAsset{}}
}

func (a *assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Add("Vary", "Accept-Encoding")
	name := strings.TrimPrefix(r.URL.Path, "/static/")
	if r.Header.Get("Range") == "" && acceptsGzip(r) {
		if g := a.compressed(name); g.body != nil {
			h.Set("Content-Type", g.ctype)
			h.Set("Content-Encoding", "gzip")
			w.WriteHeader(http.StatusOK)
			if r.Method != http.MethodHead {
				w.Write(g.body)
			}
			return
		}
	}
	a.files.ServeHTTP(w, r)
}

// compressed is the gzip form of the named asset, made once.
func (a *assets) compressed(name string) *gzAsset {
	a.mu.Lock()
	g, ok := a.gz[name]
	if !ok {
		if _, err := fs.Stat(static.FS, name); err != nil {
			a.mu.Unlock()
			return &gzAsset{} // not kept: names asked for are not bounded, files are
		}
		g = &gzAsset{}
		a.gz[name] = g
	}
	a.mu.Unlock()
	g.once.Do(func() {
		ctype := mime.TypeByExtension(path.Ext(name))
		if !compressible(name, ctype) {
			return
		}
		raw, err := static.FS.ReadFile(name)
		if err != nil || len(raw) < minGzip {
			return
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(raw)
		zw.Close()
		g.body, g.ctype = buf.Bytes(), ctype
	})
	return g
}

// compressible: text, by content type, and the licence files (no
// extension).
func compressible(name, ctype string) bool {
	if ctype == "" {
		return path.Ext(name) == ""
	}
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") || strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
}
