package planner

// sectionTitles are the titles of the report's sections, and of the anchors
// inside them named on their own, by their anchors: the headings of the
// report's pages (web/view's Sections), the headline's pointers and the
// workbook's exit check all name a section by them, so a title is written
// once.
var sectionTitles = map[string]string{
	"headline": "The answers", "path": "The way through", "exitcheck": "Exit check",
	"contract": "Test contract",
	"imports":  "Imported results", "matrix": "Concurrency matrix", "envelope": "Envelope",
	"admission": "Admission limit", "overload": "Overload test",
	"costs": "Costs", "quotes": "API quotes", "provider": "Provider view",
	"scenarios": "Demand scenarios", "crossover": "Crossover", "fleet": "Fleet",
	"residency": "Residency", "recommendation": "Recommendation",
	"evidence": "Operations evidence", "evidence-soak": "Soak and drains",
	"evidence-telemetry": "GPU telemetry", "reference": "Reference rows", "candidates": "Candidates",
	"review": "Review", "comments": "Comments", "history": "History",
	"general": "The report as a whole",
}

// SectionTitle is the title of the section, or anchor inside one, named
// anchor; "" when the report has none of that name.
func SectionTitle(anchor string) string { return sectionTitles[anchor] }
