package view

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"
)

// A refused input names its error and keeps its help text in one
// aria-describedby: written twice, the second (the help) would be lost.
func TestInvalidInputDescribedOnce(t *testing.T) {
	var b strings.Builder
	errs := FormErrors{"scenarios[0].busy_hour": "must be a share"}
	if err := figureInput("scenarios[0].busy_hour", "Low busiest hour", "x", "0.1", errs, templ.Attributes{"aria-describedby": "busy-hour-help"}).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if n := strings.Count(html, "aria-describedby="); n != 1 || !strings.Contains(html, `aria-describedby="scenarios[0].busy_hour-err busy-hour-help"`) || !strings.Contains(html, `aria-invalid="true"`) {
		t.Errorf("%d aria-describedby: %s", n, html)
	}
	b.Reset()
	if err := TextField("email", "E-mail", "x", FormErrors{"email": "bad"}, nil).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if html := b.String(); strings.Count(html, "aria-describedby=") != 1 || !strings.Contains(html, `aria-describedby="email-err"`) {
		t.Errorf("text field: %s", html)
	}
}
