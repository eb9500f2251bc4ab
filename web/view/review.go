package view

import (
	"capplan/web/store"
)

// CommentSections are the names a comment may be about, in the order the
// comment form offers them: the report as a whole, then every section of
// Sections but those marked NoComment (the answers and the way
// through, drawn from the others; the review step's own parts), each
// followed by the anchors inside it named on their own.
func CommentSections() []string {
	var named, out []string
	for _, s := range Sections {
		switch {
		case s.NoComment:
		case s.View == nil:
			named = append(named, s.Name)
		default:
			out = append(out, s.Name)
			out = append(out, s.Named...)
		}
	}
	return append(named, out...)
}

// reviewBadgeClass colours a review status: approved passes, sent back
// fails, a draft is a draft and a report in review waits.
func reviewBadgeClass(st store.ReviewStatus) string {
	switch {
	case st.SentBack != nil:
		return "fail state-sent-back"
	case st.State == store.StateApproved:
		return "pass state-approved"
	case st.State == store.StateInReview:
		return "notjudged state-in_review"
	}
	return "draft state-draft"
}
