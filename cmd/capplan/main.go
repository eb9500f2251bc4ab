// Command capplan serves the capacity-and-cost report app and offers its
// tools on the command line. main only wires: each subcommand lives in its
// own file as run<Name>(ctx, args, stdout, stderr) error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command is one subcommand.
type command struct {
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	summary string
}

var commands = map[string]command{
	"serve":     {runServe, "start the web app"},
	"user":      {runUser, "manage accounts: user add --email E --role R"},
	"backup":    {runBackup, "write one archive of the database and its raw files: backup -o FILE"},
	"restore":   {runRestore, "bring back a backup archive: restore FILE --db PATH"},
	"check":     {runCheck, "verify the database and its raw files; --remove-orphans"},
	"probe":     {runProbe, "ask a running server whether it is ready (GET /readyz); exit 0 when it is"},
	"inspect":   {runInspect, "read benchmark result files and print their rows"},
	"import":    {runImport, "import result files into a report: import --report ID FILE..."},
	"envelope":  {runEnvelope, "judge result files against an objective; gate CI on the ceiling"},
	"export":    {runExport, "write a report as an XLSX workbook with live formulas"},
	"quotes":    {runQuotes, "import a price catalogue into the quote library: quotes import --as EMAIL FILE"},
	"reference": {runReference, "import public frontier rows into a report: reference import --report ID --as EMAIL FILE..."},
}

// exitCoder is an error that asks for a particular exit status.
type exitCoder interface{ ExitCode() int }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, errUsageShown) {
			fmt.Fprintln(os.Stderr, "capplan:", err)
		}
		var ec exitCoder
		if errors.As(err, &ec) {
			os.Exit(ec.ExitCode())
		}
		os.Exit(1)
	}
}

// errUsageShown is returned after usage was printed for a bad invocation.
var errUsageShown = errors.New("usage shown")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return errUsageShown
		}
		return nil
	}
	cmd, ok := commands[args[0]]
	if !ok {
		usage(stderr)
		return fmt.Errorf("unknown command %q", args[0])
	}
	return cmd.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "capplan: capacity-and-cost reports for one GPU serving box.\n\nUsage: capplan <command> [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'capplan <command> --help' for its flags.")
}
