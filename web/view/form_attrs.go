package view

import "github.com/a-h/templ"

// invalidAttrs are an input's attributes when its value was refused: attrs
// marked aria-invalid, with the error's id errID first in aria-describedby
// and any description the input already had (a help text) kept after it,
// so the attribute is written once.
func invalidAttrs(attrs templ.Attributes, errID string) templ.Attributes {
	out := templ.Attributes{}
	for k, v := range attrs {
		out[k] = v
	}
	out["aria-invalid"] = "true"
	desc := errID
	if prev, ok := attrs["aria-describedby"].(string); ok && prev != "" {
		desc += " " + prev
	}
	out["aria-describedby"] = desc
	return out
}
