package planner

// ExitItem is one line of the exit check: something a passing report must
// hold. A report cannot be approved while any item fails. Section is the
// anchor of the report section that fixes it.
type ExitItem struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Pass    bool   `json:"pass"`
	Detail  string `json:"detail"`
	Section string `json:"section"`
}
