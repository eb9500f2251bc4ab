package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// The history records what a save changed, not the section as it was: a
// table printed longer than maxDiffValue (a soak's hours, a telemetry
// log's rows) is summarised by its entry count and a hash of its content,
// a text longer than maxDiffText by its start, length and hash, and at
// most maxDiffFields changed fields are listed, so an entry's size does
// not grow with the evidence file's (docs/ARCHITECTURE.md, "Saving a
// section").
const (
	maxDiffValue  = 1000
	maxDiffText   = 4000
	maxDiffFields = 40
)

// diffJSON describes what changed between two values as "field: value"
// lines, one side each; both empty when nothing changed.
func diffJSON(a, b any) (before, after string) {
	fa, fb := flatten(a), flatten(b)
	keys := map[string]bool{}
	for k := range fa {
		keys[k] = true
	}
	for k := range fb {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		if fa[k] != fb[k] {
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	more := 0
	if len(ks) > maxDiffFields {
		ks, more = ks[:maxDiffFields], len(ks)-maxDiffFields
	}
	var bl, al []string
	for _, k := range ks {
		bl = append(bl, fieldLabel(k)+": "+fa[k])
		al = append(al, fieldLabel(k)+": "+fb[k])
	}
	if more > 0 {
		line := fmt.Sprintf("… and %d more changed fields", more)
		bl, al = append(bl, line), append(al, line)
	}
	return strings.Join(bl, "\n"), strings.Join(al, "\n")
}

// flatten turns a value's JSON into dotted paths and printed leaves; a
// leaf printed longer than maxDiffValue is summarised.
func flatten(v any) map[string]string {
	out := map[string]string{}
	b, _ := json.Marshal(v)
	var x any
	json.Unmarshal(b, &x)
	var walk func(prefix string, x any)
	walk = func(prefix string, x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, v := range t {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, v)
			}
		case nil:
			out[prefix] = ""
		default:
			b, _ := json.Marshal(t)
			out[prefix] = summarise(t, strings.Trim(string(b), `"`))
		}
	}
	walk("", x)
	return out
}

// summarise is a leaf as the history shows it: printed whole when short,
// else its size and the start of the sha256 of its JSON, which tells two
// versions apart without holding either.
func summarise(v any, printed string) string {
	limit := maxDiffValue
	if _, ok := v.(string); ok {
		limit = maxDiffText
	}
	if len(printed) <= limit {
		return printed
	}
	sum := sha256.Sum256([]byte(printed))
	h := hex.EncodeToString(sum[:6])
	switch t := v.(type) {
	case []any:
		return fmt.Sprintf("%d entries (sha256 %s…)", len(t), h)
	case string:
		return fmt.Sprintf("%s… (%d characters, sha256 %s…)", clipRunes(t, 60), len([]rune(t)), h)
	}
	return fmt.Sprintf("%d bytes (sha256 %s…)", len(printed), h)
}

// clipRunes is the first n characters of s.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n])
}
