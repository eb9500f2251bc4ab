// Command usagelog writes a synthetic multi-tenant usage log (a RAG tenant
// with long prompts and short answers, an agents tenant with long
// multi-turn answers): go run ./testdata/usagelog -o usage.jsonl [-minutes 10] [-csv] [-seed 1].
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"capplan/web/demogen/usagegen"
)

func main() {
	fs := flag.NewFlagSet("usagelog", flag.ExitOnError)
	out := fs.String("o", "", "output file (default: standard output)")
	minutes := fs.Float64("minutes", 10, "length of the log in minutes")
	csv := fs.Bool("csv", false, "write CSV instead of JSON Lines")
	seed := fs.Uint64("seed", 1, "random seed")
	_ = fs.Parse(os.Args[1:])
	cfg := usagegen.Default()
	cfg.DurationS, cfg.CSV, cfg.Seed = *minutes*60, *csv, *seed
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "usagelog:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := usagegen.Write(w, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "usagelog:", err)
		os.Exit(1)
	}
}
