// Package static holds the app's own CSS and JS and the vendored
// third-party assets, embedded into the binary. See README.md for what is
// vendored and how to refresh it.
package static

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/url"
	"sync"
)

// FS holds every served asset, rooted at this directory: "app.css",
// "app.js", "vendor/htmx/htmx.min.js" and so on. Serve it under /static/.
//
//go:embed app.css app.js favicon.svg favicon.ico vendor
var FS embed.FS

var (
	sumsOnce sync.Once
	sums     map[string]string // file name → first 12 hex digits of its SHA-256
)

// Path returns the URL of the named asset with a content checksum appended,
// such as "/static/app.js?v=0123456789ab", so browsers may cache it for
// ever and still fetch a new copy when the file changes. A name that is not
// embedded gets no checksum, so the mistake shows up as a 404 in the browser.
func Path(name string) string {
	sumsOnce.Do(hashAll)
	p := "/static/" + (&url.URL{Path: name}).EscapedPath()
	if v, ok := sums[name]; ok {
		return p + "?v=" + v
	}
	return p
}

// hashAll fills sums once, for every embedded file.
func hashAll() {
	sums = make(map[string]string)
	err := fs.WalkDir(FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := FS.ReadFile(name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		sums[name] = hex.EncodeToString(sum[:])[:12]
		return nil
	})
	if err != nil {
		panic(err) // an embedded FS cannot fail to read
	}
}
