package web

import (
	"encoding/json"
	"sort"
	"strings"
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
	var bl, al []string
	for _, k := range ks {
		bl = append(bl, fieldLabel(k)+": "+fa[k])
		al = append(al, fieldLabel(k)+": "+fb[k])
	}
	return strings.Join(bl, "\n"), strings.Join(al, "\n")
}

// flatten turns a value's JSON into dotted paths and printed leaves.
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
			out[prefix] = strings.Trim(string(b), `"`)
		}
	}
	walk("", x)
	return out
}
