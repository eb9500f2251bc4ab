package usagegen

import (
	"bytes"
	"testing"

	"capplan/importers"
	"capplan/planner"
)

// The default mix, read back by the importer and metered: the token meter
// charges the RAG tenant several points more than its share of serving
// time, and the agents tenant less.
func TestDefaultMixOverchargesRAGByTokens(t *testing.T) {
	for _, csv := range []bool{false, true} {
		cfg := Default()
		cfg.CSV = csv
		var buf bytes.Buffer
		if err := Write(&buf, cfg); err != nil {
			t.Fatal(err)
		}
		m := planner.NewShowbackMeter(0)
		f, err := importers.ParseUsage("gen", &buf, importers.EvidenceOptions{}, m.Add)
		if err != nil {
			t.Fatal(err)
		}
		sb := m.Result(nil, f.Name)
		if f.Records < 1500 || len(sb.Gaps) != 2 {
			t.Fatalf("%d records, gaps %+v", f.Records, sb.Gaps)
		}
		// Gaps are sorted by tenant: agents, search.
		agents, search := sb.Gaps[0], sb.Gaps[1]
		if search.Tenant != "search" || search.TokensVsTimePP < 5 || agents.TokensVsTimePP > -5 {
			t.Errorf("csv=%v: gaps search %+.1f pp, agents %+.1f pp", csv, search.TokensVsTimePP, agents.TokensVsTimePP)
		}
	}
}
