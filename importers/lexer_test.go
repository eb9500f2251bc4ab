package importers

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// lexString reads {KEY: VALUE, "n": 1} where KEY and VALUE are the JSON
// encoding of s, with a lexer whose buffer holds size bytes, so that every
// escape and quote falls on a buffer boundary for some size. It returns
// the decoded key, the raw content of the value passed to skipString's
// segments, and the number read after them.
func lexString(t *testing.T, s string, size int) (key string, raw []byte, n float64) {
	t.Helper()
	enc, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	doc := "{" + string(enc) + ": " + string(enc) + `, "n": 1.5}`
	l := newLexer(strings.NewReader(doc))
	l.buf = make([]byte, size)
	first := true
	err = l.object("", func(k string) error {
		if !first { // the second key, "n" (s itself may be "n")
			v, err := l.num("n")
			n = v.v
			return err
		}
		key, first = k, false
		if _, err := l.peek(""); err != nil {
			return err
		}
		return l.skipString("", func(seg []byte) { raw = append(raw, seg...) })
	})
	if err != nil {
		t.Fatalf("%q with a %d-byte buffer: %v", s, size, err)
	}
	return key, raw, n
}

// checkLexString checks that the lexer reads s whole with buffers of 1 to
// 9 bytes and of 256 KB: keys decoded as encoding/json decodes them,
// string values passed through unchanged.
func checkLexString(t *testing.T, s string) {
	enc, _ := json.Marshal(s)
	wantRaw := enc[1 : len(enc)-1]
	var want string
	json.Unmarshal(enc, &want) // invalid UTF-8 in s is replaced
	for _, size := range []int{1, 2, 3, 4, 5, 7, 9, 256 << 10} {
		key, raw, n := lexString(t, s, size)
		if key != want || !bytes.Equal(raw, wantRaw) || n != 1.5 {
			t.Fatalf("%q with a %d-byte buffer: key %q, value %q, n %g; want %q, %q, 1.5", s, size, key, raw, n, want, wantRaw)
		}
	}
}

// TestLexerStringsAcrossBuffers reads strings full of escapes (a request
// body written as a string escapes every quote) with every buffer split.
func TestLexerStringsAcrossBuffers(t *testing.T) {
	for _, s := range []string{
		"", "a", "n", `"`, `\`, `\"`, `""""`, `\\\\`, `a"b\c`,
		`{"method":null,"stream":true,"body":{"model":"m","prompt":"x y z"}}`,
		"tab\there\nnew line \u00e9 \u2028 \U0001F600",
		strings.Repeat(`\"`, 50) + "tail",
	} {
		checkLexString(t, s)
	}
}

// FuzzLexerStrings checks the same for any string.
func FuzzLexerStrings(f *testing.F) {
	f.Add(`{"model":"m","prompt":"a \"quoted\" word"}`)
	f.Add(`\\\"\\`)
	f.Add("n") // the name of the number's key
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		checkLexString(t, s)
	})
}

// TestOnlyKeys keeps the named keys of a large object and drops the rest
// unread; a small or malformed object is passed on whole.
func TestOnlyKeys(t *testing.T) {
	pad := strings.Repeat("x", 2000)
	big := `{"args": {"a": [1, 2, {"b": "` + pad + `"}]}, "model_path": "m", "note": "` + pad + `", "decode": [{"model_path": "d"}], "version": "0.5"}`
	var got struct {
		ModelPath string `json:"model_path"`
		Version   string `json:"version"`
		Decode    []struct {
			ModelPath string `json:"model_path"`
		} `json:"decode"`
	}
	slim := onlyKeys([]byte(big), []string{"model_path", "version", "decode"})
	if len(slim) > 100 || json.Unmarshal(slim, &got) != nil || got.ModelPath != "m" || got.Version != "0.5" || len(got.Decode) != 1 || got.Decode[0].ModelPath != "d" {
		t.Errorf("onlyKeys = %.120s (%d bytes) -> %+v", slim, len(slim), got)
	}
	for _, raw := range []string{`{"model_path": "m"}`, `{"model_path": "m", "x": "` + pad + `"`, `[` + pad + `]`} {
		if got := onlyKeys([]byte(raw), []string{"model_path"}); string(got) != raw {
			t.Errorf("onlyKeys(%.30q...) = %.30q..., want it unchanged", raw, got)
		}
	}
}
