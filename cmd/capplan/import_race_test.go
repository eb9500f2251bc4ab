package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"capplan/web/demogen/guidellmgen"
	"capplan/web/store"
)

// A `capplan import` runs while a server starts against the same database,
// ten times: the server's start removes only the temporary files no live
// process holds, so every import is complete with its raw file (or, had
// it failed, absent and said so), and `check` finds nothing wrong.
func TestImportWhileServerStarts(t *testing.T) {
	t.Setenv("CAPPLAN_ADMIN_PASSWORD", "first start password")
	dbPath, id := importDB(t)
	dir := filepath.Dir(dbPath)
	ctx := context.Background()
	want := 0
	for i := range 10 {
		// The file comes through a pipe: the first half, then the server
		// starts (and removes the temporary files no process holds), then
		// the rest, so the import is surely in flight while it starts.
		src, err := os.ReadFile(writeReport(t, guidellmgen.Config{RequestsPerRow: 300, Seed: int64(i + 1), Loads: []float64{float64(i + 1)}}))
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), fmt.Sprintf("run%d.json", i))
		if err := syscall.Mkfifo(file, 0o600); err != nil {
			t.Skipf("no named pipes: %v", err)
		}
		var out, errOut strings.Builder
		done := make(chan error, 1)
		go func() {
			done <- run(ctx, []string{"import", "--report", fmt.Sprint(id), "--db", dbPath, file}, &out, &errOut)
		}()
		w, err := os.OpenFile(file, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(src[:len(src)/2])
		deadline := time.Now().Add(30 * time.Second)
		for len(uploadTemps(t, dir)) == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if len(uploadTemps(t, dir)) == 0 {
			t.Fatal("the import made no temporary file")
		}
		_, _, _, stop := runServeIn(t, dir)
		w.Write(src[len(src)/2:])
		w.Close()
		err = <-done
		if serr := stop(); serr != nil {
			t.Fatal(serr)
		}
		switch {
		case err == nil:
			want++
		case !strings.Contains(err.Error(), "nothing was imported"):
			t.Errorf("run %d: a failed import that does not say nothing was imported: %v", i, err)
		default:
			t.Logf("run %d: %v", i, err)
		}
	}
	st, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	ims, err := st.Imports(ctx, id)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(ims) != want || want != 10 {
		t.Errorf("%d imports stored, %d said imported (of 10)", len(ims), want)
	}
	for _, im := range ims {
		p, _ := store.FilePath(filepath.Join(dir, "files"), im.SHA256)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("import %s without its raw file: %v", im.FileName, err)
		}
	}
	rep, err := store.Check(ctx, dbPath, false)
	if err != nil || !rep.OK() || len(rep.InProgress) > 0 {
		t.Errorf("check: %+v %v", rep, err)
	}
	if left := uploadTemps(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
