// Package migrations holds capplan's numbered SQL migrations, embedded in
// the binary. They are applied in lexical order, each in its own
// transaction, by the store.
package migrations

import "embed"

// FS holds the *.sql migration files.
//
//go:embed *.sql
var FS embed.FS
