package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"capplan/web/store"
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

// parseFlags parses args, flags before or after the file names alike
// ("inspect run.json --json"); --help is not an error.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	err = fs.Parse(interspersed(fs, args))
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

// interspersed moves the flags (with their values) ahead of the other
// arguments, so that flags may follow file names; "--" ends the flags.
func interspersed(fs *flag.FlagSet, args []string) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue // Parse reports it
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if i+1 < len(args) {
			flags = append(flags, args[i+1])
			i++
		}
	}
	return append(append(flags, "--"), rest...)
}

// noArgs refuses arguments a command does not take, so that a typo does
// not silently drop the flags after it.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

// existingDB refuses a database file that does not exist, for commands
// that read an existing database (a mistyped --db must not create one).
func existingDB(path string) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("database %s: %w (start the app once with `capplan serve`, or pass --db)", path, err)
	}
	return nil
}

// openAs opens the existing database at path for a command that acts as
// the account with email as (what names the command in its errors).
// The caller closes the store.
func openAs(ctx context.Context, path, as, what string) (*store.Store, store.User, error) {
	if err := existingDB(path); err != nil {
		return nil, store.User{}, err
	}
	st, err := store.Open(ctx, path)
	if err != nil {
		return nil, store.User{}, err
	}
	u, err := st.UserByEmail(ctx, as)
	if err != nil {
		st.Close()
		return nil, store.User{}, fmt.Errorf("%s: account %q: %w", what, as, err)
	}
	return st, u, nil
}

// plural picks the word for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
