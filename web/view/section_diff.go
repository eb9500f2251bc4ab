package view

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"capplan/planner"
)

// historyLines are a history entry's change in sentences, one a line:
// "Label: before → after" for each field both sides name, in order, else
// "before → after", or the one side there is.
func historyLines(before, after string) []string {
	if before == "" && after == "" {
		return nil
	}
	before, after = legacyLines(before), legacyLines(after)
	if before == "" {
		return strings.Split(after, "\n")
	}
	bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
	if len(bl) == len(al) {
		out := make([]string, 0, len(bl))
		for i := range bl {
			// The label is the longest common start ending before ": "
			// (a label may hold ": " itself: "Gate 1: name").
			n := 0
			for n < len(bl[i]) && n < len(al[i]) && bl[i][n] == al[i][n] {
				n++
			}
			cut := strings.LastIndex(bl[i][:n], ": ")
			if cut <= 0 {
				out = nil
				break
			}
			out = append(out, bl[i][:cut]+": "+bl[i][cut+2:]+" → "+al[i][cut+2:])
		}
		if out != nil {
			return out
		}
	}
	if after == "" {
		return []string{strings.ReplaceAll(before, "\n", "; ") + " → (removed)"}
	}
	return []string{strings.ReplaceAll(before, "\n", "; ") + " → " + strings.ReplaceAll(after, "\n", "; ")}
}

// legacyLines rewrites, as sentences, the lines of an entry saved before
// the history walked lists item by item: such a line carries a list or an
// object as JSON ("gates: [{"name":"data location"}]"). A list of plain
// values reads as one line, "Loads: 1, 2, 4"; anything else as one line a
// field, labelled as DiffJSON labels them ("Gates 1: name: data
// location"). Every other line is kept as it is.
func legacyLines(side string) string {
	if !strings.ContainsAny(side, "[{") {
		return side
	}
	lines := strings.Split(side, "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		label, val, ok := strings.Cut(l, ": ")
		if !ok || val == "" || (val[0] != '[' && val[0] != '{') || !json.Valid([]byte(val)) {
			out = append(out, l)
			continue
		}
		d := json.NewDecoder(strings.NewReader(val))
		d.UseNumber()
		var x any
		d.Decode(&x)
		if list, isList := x.([]any); isList && plainValues(list) {
			parts := make([]string, len(list))
			for i, v := range list {
				parts[i] = historyValue(flatten(v)[""])
			}
			if len(parts) == 0 {
				parts = []string{"(none)"}
			}
			out = append(out, Capitalize(label)+": "+strings.Join(parts, ", "))
			continue
		}
		f := flatten(x)
		ks := make([]string, 0, len(f))
		for k := range f {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(i, j int) bool { return keyLess(ks[i], ks[j]) })
		for _, k := range ks {
			out = append(out, legacyLabel(Capitalize(label), k)+": "+historyValue(f[k]))
		}
		if len(ks) == 0 {
			out = append(out, Capitalize(label)+": (none)")
		}
	}
	return strings.Join(out, "\n")
}

// historyValue is a leaf as the history shows it: "(none)" for nothing.
func historyValue(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// keyLess orders flattened keys as people read them: list items by their
// number (item 2 before item 10), else alphabetically.
func keyLess(a, b string) bool {
	for a != "" && b != "" {
		ia, ib := strings.IndexByte(a, '['), strings.IndexByte(b, '[')
		if ia < 0 || ib < 0 || a[:ia] != b[:ib] {
			return a < b
		}
		ea, eb := strings.IndexByte(a, ']'), strings.IndexByte(b, ']')
		na, errA := strconv.Atoi(a[ia+1 : ea])
		nb, errB := strconv.Atoi(b[ib+1 : eb])
		if errA != nil || errB != nil || na == nb {
			if a[ia+1:ea] != b[ib+1:eb] {
				return a[ia+1:ea] < b[ib+1:eb]
			}
			a, b = a[ea+1:], b[eb+1:]
			continue
		}
		return na < nb
	}
	return a < b
}

// flatten turns a value's JSON into keys and printed leaves: "a.b" for an
// object's field, "a[0].b" for a list's item. A float is written by the
// display rule for inputs (planner.DisplayInput), never as a raw float; a
// list printed longer than maxDiffValue is one leaf, summarised, and so is
// a long text.
func flatten(v any) map[string]string {
	out := map[string]string{}
	b, _ := json.Marshal(v)
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var x any
	d.Decode(&x)
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
		case []any:
			if b, _ := json.Marshal(t); len(b) > maxDiffValue {
				out[prefix] = summarise(t, string(b))
				return
			}
			for i, v := range t {
				walk(prefix+"["+strconv.Itoa(i)+"]", v)
			}
		case nil:
			out[prefix] = ""
		case json.Number:
			s := t.String()
			if f, err := t.Float64(); err == nil && strings.ContainsAny(s, ".eE") {
				s = planner.DisplayInput(f)
			}
			out[prefix] = s
		case bool:
			out[prefix] = map[bool]string{true: "yes", false: "no"}[t]
		default:
			out[prefix] = summarise(t, strings.TrimSpace(strings.Trim(mustJSON(t), `"`)))
		}
	}
	walk("", x)
	return out
}

// plainValues reports whether a list holds no lists or objects.
func plainValues(list []any) bool {
	for _, v := range list {
		switch v.(type) {
		case []any, map[string]any:
			return false
		}
	}
	return true
}

// legacyLabel labels a flattened key k under an old line's label: "[0].name"
// under "Gates" is "Gates 1: name".
func legacyLabel(label, k string) string {
	var b strings.Builder
	b.WriteString(label)
	for k != "" {
		if strings.HasPrefix(k, "[") {
			end := strings.IndexByte(k, ']')
			n, _ := strconv.Atoi(k[1:end])
			fmt.Fprintf(&b, " %d", n+1)
			k = k[end+1:]
			continue
		}
		k = strings.TrimPrefix(k, ".")
		name := k
		if i := strings.IndexAny(k, ".["); i >= 0 {
			name, k = k[:i], k[i:]
		} else {
			k = ""
		}
		l := fieldLabel(name)
		// Within a line the field is named in lower case ("Gates 1:
		// name"), an acronym as it is ("TTFT").
		if r := []rune(l); len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1]) {
			r[0] = unicode.ToLower(r[0])
			l = string(r)
		}
		b.WriteString(": " + l)
	}
	return b.String()
}

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

func mustJSON(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
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

// DiffJSON describes what changed between two values of a section as
// "label: value" lines, one side each, in the same order; both empty when
// nothing changed. prefix is the section's key among the planner's inputs
// ("recommendation", "scenarios", ...): a field is labelled by its key
// under it when the forms know that key ("recommendation.gates[0].name" is
// "Gate 1: name"), else by its key alone. Lists are walked item by item,
// so no line carries raw JSON, and a value absent on one side reads
// "(none)" there (docs/ARCHITECTURE.md, "Saving a section").
func DiffJSON(prefix string, a, b any) (before, after string) {
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
	sort.Slice(ks, func(i, j int) bool { return keyLess(ks[i], ks[j]) })
	more := 0
	if len(ks) > maxDiffFields {
		ks, more = ks[:maxDiffFields], len(ks)-maxDiffFields
	}
	var bl, al []string
	for _, k := range ks {
		l := historyLabel(prefix, k)
		bl = append(bl, l+": "+historyValue(fa[k]))
		al = append(al, l+": "+historyValue(fb[k]))
	}
	if more > 0 {
		line := fmt.Sprintf("… and %d more changed fields", more)
		bl, al = append(bl, line), append(al, line)
	}
	return strings.Join(bl, "\n"), strings.Join(al, "\n")
}

// historyLabel is the label of a flattened key of a section.
func historyLabel(prefix, k string) string {
	if list, ok := strings.CutSuffix(prefix, "[]"); ok && k != "" {
		name, rest, _ := strings.Cut(k, ".")
		prefix, k = "", list+"["+name+"]"
		if rest != "" {
			k += "." + rest
		}
	}
	full := k
	switch {
	case prefix == "":
	case k == "":
		full = prefix
	case strings.HasPrefix(k, "["):
		full = prefix + k
	default:
		full = prefix + "." + k
	}
	switch {
	case planner.FieldLabelKnown(full):
		return Capitalize(fieldLabel(full))
	case planner.FieldLabelKnown(k):
		return Capitalize(fieldLabel(k))
	}
	// An item of a list the forms label as a whole: "loads[2]" is "Load
	// levels 3".
	if i := strings.IndexByte(k, '['); i > 0 {
		if j := strings.IndexByte(k[i:], ']'); j > 0 {
			if n, err := strconv.Atoi(k[i+1 : i+j]); err == nil {
				for _, head := range []string{full[:len(full)-len(k)] + k[:i], k[:i]} {
					if planner.FieldLabelKnown(head) {
						l := Capitalize(fieldLabel(head)) + " " + strconv.Itoa(n+1)
						if rest := strings.TrimPrefix(k[i+j+1:], "."); rest != "" {
							l += ": " + fieldLabel(rest)
						}
						return l
					}
				}
			}
		}
	}
	if l := Capitalize(fieldLabel(full)); l != "" {
		return l
	}
	return "Value"
}
