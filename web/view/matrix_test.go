package view

import (
	"testing"
)

func TestCodeWords(t *testing.T) {
	for in, want := range map[string]string{"planned-row-missing": "planned row missing", "load-kind-mismatch": "load kind mismatch", "errors": "errors"} {
		if got := codeWords(in); got != want {
			t.Errorf("codeWords(%q) = %q, want %q", in, got, want)
		}
	}
}
