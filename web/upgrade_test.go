package web

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"capplan/web/reports"
	"capplan/web/store"
)

// The upgrade fixtures in testdata/upgrade are databases written by
// earlier releases, one per schema: NNNN_<commit>.db was made by the
// release at <commit>, whose newest migration is NNNN, and NNNN_<commit>.json
// holds what that release computed from it (see testdata/upgrade/README.md).
// The newest fixture is the previous release.

// upgradeDay is the day the fixtures' figures were computed as of.
var upgradeDay = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// upgradeDoc is what a fixture records of every report: the header, the
// contract, the history and the planner's Result (releases before the
// first import had no Result).
func upgradeDoc(ctx context.Context, t *testing.T, st *store.Store) []map[string]any {
	t.Helper()
	svc := reports.New(st, "", func() time.Time { return upgradeDay })
	reports, err := st.Reports(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var doc []map[string]any
	for _, r0 := range reports {
		r, err := st.Report(ctx, r0.ID)
		if err != nil {
			t.Fatal(err)
		}
		hist, err := st.History(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		var hs []map[string]any
		for _, h := range hist {
			hs = append(hs, map[string]any{"version": h.Version, "action": h.Action, "section": h.Section, "user": h.User, "at": h.At})
		}
		rep, err := svc.Load(ctx, r.ID)
		if err != nil {
			t.Fatalf("report %d: %v", r.ID, err)
		}
		res := rep.Result
		doc = append(doc, map[string]any{"id": r.ID, "title": r.Title, "version": r.Version, "frozen": r.Frozen(),
			"contract": r.Contract, "history": hs, "result": res})
	}
	// Through JSON, so that it compares with the fixture's record as data.
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	json.Unmarshal(b, &out)
	return out
}

// sameFigures reports where now differs from what an earlier release
// recorded (was). What is compared is the data and the figures: every
// number, every yes/no and every exact amount that was holds must be in now,
// equal. Wording (any other text) may have changed between releases, and
// so may the chart's drawing; fields added since are not compared, and a
// field recorded as empty may since be left out or be an empty list.
func sameFigures(path string, was, now any) []string {
	switch w := was.(type) {
	case map[string]any:
		n, ok := now.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: was an object, now %v", path, short(now))}
		}
		var diffs []string
		for k, wv := range w {
			if k == "chart" {
				continue
			}
			nv, present := n[k]
			if !present {
				if empty(wv) {
					continue
				}
				diffs = append(diffs, fmt.Sprintf("%s.%s: was %v, now missing", path, k, short(wv)))
				continue
			}
			diffs = append(diffs, sameFigures(path+"."+k, wv, nv)...)
		}
		return diffs
	case []any:
		n, ok := now.([]any)
		if !ok || len(n) != len(w) {
			return []string{fmt.Sprintf("%s: was %d items, now %v", path, len(w), short(now))}
		}
		var diffs []string
		for i := range w {
			diffs = append(diffs, sameFigures(fmt.Sprintf("%s[%d]", path, i), w[i], n[i])...)
		}
		return diffs
	case nil:
		return nil // not known then; a later release may know it
	case string:
		if strings.HasSuffix(path, ".exact") && was != now {
			return []string{fmt.Sprintf("%s: was %v, now %v", path, short(was), short(now))}
		}
		return nil
	default:
		if was != now {
			return []string{fmt.Sprintf("%s: was %v, now %v", path, short(was), short(now))}
		}
		return nil
	}
}

// changedOnPurpose are the figures a later release changed deliberately:
// a difference at a path matching one is expected, with the reason given.
// Add to it only with the reason a figure changed on purpose.
var changedOnPurpose = []struct{ path, why string }{
	{`\.matrix\[\d+\]\.warnings$`, "later releases check rows for more (too few requests for the percentile, ...)"},
	{`\.admission\.settings\.gateway\.`, "no gateway settings are proposed without a demonstrated ceiling"},
	{`\.verdict\.checks\[\d+\]\.pass$`, "an OOM or restart nobody recorded is unknown (null), never a pass"},
	{`\.exit_check$`, "the exit check guards the method with more items (counted rows, loosening accepted, gates, justification, ceiling memory, currency)"},
	{`\.exit_pass$`, "an unrecorded OOM/restart at the ceiling now fails the exit check"},
	{`\.result\.contract_warnings$`, "the planned loads no row has are one warning, not one each, and mixed load kinds (which only rows that do not count could raise) no longer warn"},
	{`\.envelope\.first_failure(_reason)?$`, "rows off the contract (too few requests, too short, another model or workload) no longer count toward the envelope"},
	{`\.admission\.(queue_size|max_queue_age_s|retry_after_s|reasons|settings\.gateway_notes)$`, "the queue fits the TTFT bound's wait budget and Retry-After follows the drain rate (docs/method.md, \"Admission inside the objective\")"},
	{`\.capacity\.per_box_rate$`, "capacity per box holds the objective with random arrivals, not at the closed-loop ceiling (docs/method.md, \"Queues in the busy hour\")"},
	{`\.quotes\[\d+\]\.(per_request|segments\[\d+\]\.slope)\.exact$`, "a share r of attempts retried until they succeed costs 1 / (1 - r) attempts, not 1 + r, and the price per request is rounded to 6 significant figures (docs/method.md, \"Retries\", \"Rounding\"); a quote without retries and with a price of 6 figures or fewer does not move"},
	{`\.scenarios\[\d+\]\.options\[[1-9]\d*\]\.(monthly_cost|cost_per_1000|gross|net)\.exact$`, "an API option's cost follows its price per request (retries as 1 / (1 - r), docs/method.md \"Retries\")"},
	{`\.crossovers\[\d+\]\.(v_api\.exact|n_rounded|n_exact|n)$`, "the crossover follows the quote's price per request (retries as 1 / (1 - r), docs/method.md \"Retries\")"},
	{`\.scenarios\[\d+\]\.(boxes_needed|exceeds_plan|options\[0\]\.(boxes|monthly_cost\.exact|cost_per_1000\.exact|gross\.exact|net\.exact))$`, "boxes are sized with random arrivals, so a scenario may need more (docs/method.md, \"Queues in the busy hour\")"},
}

// expected reports whether the difference d is one changedOnPurpose allows.
func expected(d string) bool {
	path, _, _ := strings.Cut(d, ":")
	for _, c := range changedOnPurpose {
		if regexp.MustCompile(c.path).MatchString(path) {
			return true
		}
	}
	return false
}

func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case float64:
		return v == 0
	case bool:
		return !v
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

// schema is the database's schema as SQLite records it.
func schema(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_schema ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, s string
		rows.Scan(&typ, &name, &s)
		fmt.Fprintf(&b, "%s %s: %s\n", typ, name, s)
	}
	return b.String()
}

func TestUpgradeFromEveryEarlierSchema(t *testing.T) {
	ctx := context.Background()
	fixtures, err := filepath.Glob("testdata/upgrade/*.db")
	if err != nil || len(fixtures) < 4 {
		t.Fatalf("upgrade fixtures: %v %v", fixtures, err)
	}
	freshPath := filepath.Join(t.TempDir(), "fresh.db")
	fresh, err := store.Open(ctx, freshPath)
	if err != nil {
		t.Fatal(err)
	}
	fresh.Close()
	want := schema(t, freshPath)

	for _, fx := range fixtures {
		name := strings.TrimSuffix(filepath.Base(fx), ".db")
		t.Run(name, func(t *testing.T) {
			// A copy: the committed fixture stays as its release wrote it.
			b, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "capplan.db")
			os.WriteFile(path, b, 0o600)
			st, err := store.Open(ctx, path)
			if err != nil {
				t.Fatalf("opening a database written by %s: %v", name, err)
			}
			defer st.Close()
			if pending, err := st.PendingMigrations(ctx); err != nil || len(pending) > 0 {
				t.Fatalf("after opening: pending %v, %v", pending, err)
			}
			if got := schema(t, path); got != want {
				t.Errorf("the migrated schema differs from a fresh database's:\nmigrated:\n%s\nfresh:\n%s", got, want)
			}

			var was []map[string]any
			recorded, err := os.ReadFile(strings.TrimSuffix(fx, ".db") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(recorded, &was); err != nil {
				t.Fatal(err)
			}
			now := upgradeDoc(ctx, t, st)
			if len(now) != len(was) {
				t.Fatalf("%d reports after the upgrade, %d before", len(now), len(was))
			}
			results := 0
			for i := range was {
				if _, ok := was[i]["result"]; ok {
					results++
				}
				for _, d := range sameFigures(fmt.Sprintf("report %v", was[i]["id"]), was[i], now[i]) {
					if !expected(d) {
						t.Error(d)
					}
				}
			}
			if !strings.HasPrefix(name, "0002_") && results == 0 {
				t.Error("the fixture records no computed figures")
			}
		})
	}

	// The newest fixture is the previous release: its schema is the newest
	// but for the migrations added since.
	newest := strings.TrimSuffix(filepath.Base(fixtures[len(fixtures)-1]), ".db")
	if !slices.ContainsFunc(store.Migrations(), func(m string) bool { return strings.HasPrefix(m, newest[:4]+"_") }) {
		t.Errorf("the newest fixture %s names no known migration", newest)
	}
}
