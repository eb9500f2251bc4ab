package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// newFlags returns a flag set that prints usage to stderr and returns
// errors instead of exiting.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: capplan %s\n\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; --help is not an error.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return true, nil
	}
	if err != nil {
		return false, errUsageShown
	}
	return false, nil
}

// env returns the environment variable, or def when it is unset.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// defaultDB is where the database lives unless --db or CAPPLAN_DB says otherwise.
func defaultDB() string { return env("CAPPLAN_DB", "data/capplan.db") }
