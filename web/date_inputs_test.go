package web

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"capplan/web/reports"
	"capplan/web/store"
)

// Every date the demo report's forms and the quote library ask for is a
// date picker: an input named for a date (…date, …_date, expiry) is
// type="date".
func TestEveryDateInputIsAPicker(t *testing.T) {
	app := newTestApp(t)
	ctx := context.Background()
	owner, err := app.store.CreateUser(ctx, "admin", "Admin", store.RoleAdmin, testPassword)
	if err != nil {
		t.Fatal(err)
	}
	app.users["demo"] = owner
	if err := reports.SeedDemo(ctx, app.store, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	list, _ := app.store.Reports(ctx)
	c := app.client("demo")
	_, report := do(t, c, "GET", fmt.Sprintf("%s/reports/%d/print", app.srv.URL, list[0].ID), nil)
	report = withParts(t, c, app.srv.URL, report)
	_, contract := do(t, c, "GET", fmt.Sprintf("%s/reports/%d/contract/edit", app.srv.URL, list[0].ID), nil)
	_, quotes := do(t, c, "GET", app.srv.URL+"/quotes", nil)
	input := regexp.MustCompile(`<input[^>]*>`)
	name := regexp.MustCompile(`name="([^"]+)"`)
	seen := 0
	for _, page := range []string{report, contract, quotes} {
		for _, in := range input.FindAllString(page, -1) {
			m := name.FindStringSubmatch(in)
			if m == nil {
				continue
			}
			n := m[1]
			if !strings.HasSuffix(n, "date") && !strings.HasSuffix(n, "expiry") {
				continue
			}
			seen++
			if !strings.Contains(in, `type="date"`) {
				t.Errorf("the date input %s is not a date picker: %s", n, in)
			}
		}
	}
	if seen < 10 {
		t.Errorf("only %d date inputs found; the pages did not render their forms", seen)
	}
}
