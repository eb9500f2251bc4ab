package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"capplan/web/store"
)

func runUser(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add" {
		fmt.Fprintln(stderr, "Usage: capplan user add --email E --role lead|reviewer|finance|admin [--name N] [--password P]")
		if len(args) > 0 && args[0] != "--help" && args[0] != "-h" {
			return fmt.Errorf("user: unknown subcommand %q; the one there is: user add", args[0])
		}
		if len(args) > 0 {
			return nil
		}
		return errUsageShown
	}
	fs := newFlags("user add", "user add --email E --role lead|reviewer|finance|admin [--name N] [--password P] [--db FILE]", stderr)
	email := fs.String("email", "", "the person's email, used to log in (required)")
	role := fs.String("role", "", "lead, reviewer, finance or admin (required)")
	name := fs.String("name", "", "display name")
	pw := fs.String("password", "", "initial password; a random one is printed when empty (env CAPPLAN_USER_PASSWORD)")
	dbPath := fs.String("db", defaultDB(), "SQLite database file (env CAPPLAN_DB)")
	if help, err := parseFlags(fs, args[1:]); help || err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *email == "" || *role == "" {
		fs.Usage()
		return errors.New("user add: --email and --role are required")
	}
	password := *pw
	if password == "" {
		password = env("CAPPLAN_USER_PASSWORD", "")
	}
	printed := password == ""
	if printed {
		b := make([]byte, 12)
		rand.Read(b)
		password = base64.RawURLEncoding.EncodeToString(b)
	}
	st, err := store.Open(ctx, *dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.CreateUser(ctx, *email, *name, store.Role(*role), password)
	if err != nil {
		return fmt.Errorf("user add: %w", err)
	}
	fmt.Fprintf(stdout, "added %s as %s\n", u.Email, u.Role)
	if printed {
		fmt.Fprintf(stdout, "password (shown once): %s\n", password)
	}
	return nil
}
