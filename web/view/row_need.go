package view

import (
	"github.com/a-h/templ"

	"capplan/planner"
)

// rowIDOfKey is the stored id of the report's own row with key
// (planner.RowKey); 0 when none.
func (v Report) rowIDOfKey(key string) int64 {
	for _, im := range v.Imports.Imports {
		if im.CandidateID != 0 {
			continue
		}
		for _, ir := range im.Table {
			if planner.RowKey(ir.Row) == key {
				return ir.ID
			}
		}
	}
	return 0
}

// needHref is the link to what is left to do: the figures form of the row
// with key row (planner.RowNeed), which opens when the link lands on it,
// else the anchor.
func (v Report) needHref(anchor, row string) templ.SafeURL {
	if row != "" {
		if id := v.rowIDOfKey(row); id != 0 {
			return v.href(observedAnchor(id))
		}
	}
	if anchor == "" {
		anchor = "matrix"
	}
	return v.href(anchor)
}

// needLinkText is the words of a needHref link.
func (v Report) needLinkText(anchor, row string) string {
	if row != "" && v.rowIDOfKey(row) != 0 {
		return "Open the row's figures"
	}
	return "Go to " + sectionTitle(anchor)
}

// missingLinkText is the words of the link beside a headline's missing
// thing.
func missingLinkText(m planner.Missing) string {
	if m.Row != "" {
		return "Open " + m.Where
	}
	return "Go to " + m.Where
}

// observedAnchor is the anchor of a row's figures form.
func observedAnchor(id int64) string { return "observed-" + itoa64(id) }
