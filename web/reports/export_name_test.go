package reports

import (
	"testing"

	"capplan/web/store"
)

func TestExportNameFromTitleAndVersion(t *testing.T) {
	for _, tc := range []struct {
		title string
		id    int64
		v     int
		want  string
	}{
		{"Demo: support assistant on one H100", 2, 11, "Demo-support-assistant-on-one-H100-v11.xlsx"},
		{`../../etc/"passwd" <x>`, 3, 1, "etc-passwd-x-v1.xlsx"},
		{"Überprüfung 2026", 4, 2, "berpr-fung-2026-v2.xlsx"},
		{"   ", 7, 12, "report-7-v12.xlsx"},
	} {
		if got := ExportName(&Report{Report: store.Report{ID: tc.id, Title: tc.title, Version: tc.v}}, "xlsx"); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.title, got, tc.want)
		}
	}
}
