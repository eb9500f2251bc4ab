package static

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"path"
	"regexp"
	"testing"
)

// vendored lists every third-party file with a string that identifies the
// version README.md states, so a re-vendor that forgets the README fails.
var vendored = []struct {
	name    string
	version string
}{
	{"vendor/htmx/htmx.min.js", `version:"2.0.11"`},
	{"vendor/echarts/echarts.min.js", `version="6.1.0"`},
	{"vendor/pico/pico.min.css", `Pico CSS ✨ v2.1.1`},
}

func TestVendoredFilesEmbedded(t *testing.T) {
	for _, v := range vendored {
		t.Run(v.name, func(t *testing.T) {
			b, err := FS.ReadFile(v.name)
			if err != nil {
				t.Fatalf("not embedded: %v", err)
			}
			if !bytes.Contains(b, []byte(v.version)) {
				t.Errorf("%s does not contain %q; update README.md and this test together", v.name, v.version)
			}
		})
	}
	for _, name := range []string{"app.css", "app.js"} {
		if _, err := FS.ReadFile(name); err != nil {
			t.Errorf("%s not embedded: %v", name, err)
		}
	}
}

func TestEveryVendorDirHasLicense(t *testing.T) {
	dirs, err := fs.ReadDir(FS, "vendor")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no vendor directories embedded")
	}
	for _, d := range dirs {
		if !d.IsDir() {
			t.Errorf("vendor/%s: expected only directories in vendor/", d.Name())
			continue
		}
		lic := path.Join("vendor", d.Name(), "LICENSE")
		b, err := FS.ReadFile(lic)
		if err != nil || len(bytes.TrimSpace(b)) == 0 {
			t.Errorf("%s missing or empty: %v", lic, err)
		}
	}
}

func TestPath(t *testing.T) {
	re := regexp.MustCompile(`^/static/app\.js\?v=[0-9a-f]{12}$`)
	first := Path("app.js")
	if !re.MatchString(first) {
		t.Fatalf("Path(app.js) = %q, want /static/app.js?v=<12 hex>", first)
	}
	if again := Path("app.js"); again != first {
		t.Errorf("Path not stable: %q then %q", first, again)
	}
	b, err := FS.ReadFile("app.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if want := "/static/app.js?v=" + hex.EncodeToString(sum[:])[:12]; first != want {
		t.Errorf("Path(app.js) = %q, want %q", first, want)
	}
	if got := Path("vendor/htmx/htmx.min.js"); !regexp.MustCompile(`^/static/vendor/htmx/htmx\.min\.js\?v=[0-9a-f]{12}$`).MatchString(got) {
		t.Errorf("Path(vendor/htmx/htmx.min.js) = %q", got)
	}
	if got, want := Path("missing.js"), "/static/missing.js"; got != want {
		t.Errorf("Path(missing.js) = %q, want %q", got, want)
	}
}
