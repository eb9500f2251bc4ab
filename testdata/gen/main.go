// Command gen writes a synthetic GuideLLM report (family D) for tests and
// benchmarks: go run ./testdata/gen -o out.json -rows 5 -requests-per-row 200 [-size 1GB] [-kind concurrency|rate].
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"capplan/web/demogen/guidellmgen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := fs.String("o", "", "output file (default: standard output)")
	rows := fs.Int("rows", 5, "number of load levels; the defaults are 1,2,4,8,10 then +2 each")
	loads := fs.String("loads", "", "comma-separated load levels (overrides -rows)")
	per := fs.Int("requests-per-row", 200, "requests per load level")
	size := fs.String("size", "", "approximate file size, e.g. 500MB or 1GB (overrides -requests-per-row)")
	kind := fs.String("kind", "concurrency", "concurrency or rate")
	model := fs.String("model", "", "model name (default meta-llama/Llama-3.1-8B-Instruct)")
	seed := fs.Int64("seed", 1, "random seed")
	identical := fs.Bool("identical-prompts", false, "send the same prompt in every request")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg := guidellmgen.Config{Model: *model, RequestsPerRow: *per, Seed: *seed, IdenticalPrompts: *identical}
	switch *kind {
	case "concurrency":
		cfg.Kind = guidellmgen.Concurrency
	case "rate":
		cfg.Kind = guidellmgen.Rate
	default:
		return fmt.Errorf("-kind must be concurrency or rate, not %q", *kind)
	}
	if *loads != "" {
		for _, s := range strings.Split(*loads, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return fmt.Errorf("-loads: %w", err)
			}
			cfg.Loads = append(cfg.Loads, v)
		}
	} else {
		def := []float64{1, 2, 4, 8, 10}
		for i := 0; i < *rows; i++ {
			if i < len(def) {
				cfg.Loads = append(cfg.Loads, def[i])
			} else {
				cfg.Loads = append(cfg.Loads, 10+2*float64(i-len(def)+1))
			}
		}
	}
	if *size != "" {
		n, err := parseSize(*size)
		if err != nil {
			return err
		}
		cfg.TargetBytes = n
	}
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := guidellmgen.Write(w, cfg); err != nil {
		return err
	}
	if w != os.Stdout {
		return w.Close()
	}
	return nil
}

// parseSize reads sizes such as 1GB, 500MB, 64KB or 1000 (bytes).
func parseSize(s string) (int64, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, x := range []struct {
		suf string
		m   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(u, x.suf) {
			u, mult = strings.TrimSuffix(u, x.suf), x.m
			break
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("-size: cannot read %q", s)
	}
	return int64(v * float64(mult)), nil
}
