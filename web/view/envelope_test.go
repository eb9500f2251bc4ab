package view

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"capplan/planner"
)

// The overload answer names the seconds a refused client waits: written
// after the glossary link, they were once taken for the link's children
// and dropped ("HTTP 429 with Retry-After s").
func TestAdmissionOverloadAnswerKeepsItsSeconds(t *testing.T) {
	var b strings.Builder
	if err := admissionPanel(planner.Admission{OverloadStatus: 429, RetryAfterS: 3}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	_, answer, ok := strings.Cut(html, "<dt>Overload answer</dt>")
	if !ok {
		t.Fatal("no overload answer")
	}
	answer, _, _ = strings.Cut(answer, "</dd>")
	if got := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(answer, ""); got != "HTTP 429 with Retry-After 3 s" {
		t.Errorf("overload answer reads %q", got)
	}
}
