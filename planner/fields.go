package planner

import "strings"

// FieldSection is the anchor of the report section where the input named
// by a field key is edited: "costs" for self_hosted.* and quotes[...].*,
// "scenarios" for scenarios[i].*, "recommendation", "envelope" for the
// admission choices, "overload", "candidates", "residency" for routes[i].*,
// "matrix" for what is typed per row, and "contract" for the contract and
// anything else.
func FieldSection(key string) string {
	head := key
	if i := strings.IndexAny(head, ".["); i >= 0 {
		head = head[:i]
	}
	switch head {
	case "self_hosted", "quotes", "quote", "currency", "token_basis", "max_boxes", "stale_after_days", "as_of":
		return "costs"
	case "scenarios", "scenario":
		return "scenarios"
	case "recommendation":
		return "recommendation"
	case "admission":
		return "envelope"
	case "overload":
		return "overload"
	case "candidates", "candidate":
		return "candidates"
	case "routes", "route":
		return "residency"
	case "rows", "observed":
		return "matrix"
	}
	return "contract"
}
