package main

import (
	"debug/elf"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// imageUID is the nonroot user of the container image's distroless base.
const imageUID = 65532

// TestBinaryRunsAsTheImageRunsIt builds the binary as the Dockerfile does
// (CGO_ENABLED=0: static) and runs it the way the image does: as the
// image's non-root user when the test runs as root, from a working
// directory it cannot write, with the database and the raw files in the
// one writable data directory, configured by the image's environment, and
// the HEALTHCHECK's `capplan probe` as the readiness test. While it serves,
// an operator's backup and check run as the same user; SIGTERM stops it
// cleanly. No container engine is needed.
func TestBinaryRunsAsTheImageRunsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	root := t.TempDir()
	bin := filepath.Join(root, "capplan")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary is dynamically linked; the image has no C library")
		}
	}
	f.Close()

	data := filepath.Join(root, "data")
	cwd := filepath.Join(root, "cwd")
	os.Mkdir(data, 0o750)
	os.Mkdir(cwd, 0o555)
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		// Root may write anywhere; the image's user may not. The temporary
		// directories are made passable, the data directory its own.
		for d := root; d != filepath.Dir(os.TempDir()) && d != "/"; d = filepath.Dir(d) {
			if st, err := os.Stat(d); err == nil && st.Mode().Perm()&0o005 != 0o005 {
				os.Chmod(d, st.Mode().Perm()|0o005)
			}
		}
		if err := os.Chown(data, imageUID, imageUID); err != nil {
			t.Fatal(err)
		}
		cred = &syscall.Credential{Uid: imageUID, Gid: imageUID}
	} else {
		t.Log("not root: runs as the current user")
	}
	addr := freeAddr(t)
	env := []string{
		"CAPPLAN_DB=" + filepath.Join(data, "capplan.db"),
		"CAPPLAN_ADDR=" + addr,
		"CAPPLAN_ADMIN_PASSWORD=container test password",
		"HOME=" + cwd,
		"TMPDIR=" + filepath.Join(root, "no-such-tmp"),
	}
	command := func(args ...string) *exec.Cmd {
		c := exec.Command(bin, args...)
		c.Dir, c.Env = cwd, env
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		return c
	}

	// The image's CMD is `serve --no-demo`; the demo is seeded here so that
	// raw files are written too.
	srv := command("serve")
	var logs syncBuffer
	srv.Stdout, srv.Stderr = &logs, &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	defer func() {
		if srv.ProcessState == nil {
			srv.Process.Kill()
			<-exited
		}
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		out, err := command("probe", "--timeout", "2s").CombinedOutput()
		if err == nil {
			if !strings.Contains(string(out), `"status":"ready"`) {
				t.Errorf("probe: %s", out)
			}
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("serve stopped: %v\n%s", err, logs.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready after 60 s: %s\n%s", out, logs.String())
		}
	}

	// The operator's commands, as the same user, while it serves.
	if out, err := command("backup", "-o", filepath.Join(data, "backup.tar")).CombinedOutput(); err != nil {
		t.Errorf("backup: %v\n%s", err, out)
	}
	if out, err := command("check").CombinedOutput(); err != nil || !strings.Contains(string(out), "ok:") {
		t.Errorf("check: %v\n%s", err, out)
	}

	srv.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("serve after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}

	// Logs: one JSON object a line.
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("log line is not JSON: %s", l)
		}
	}
	if !strings.Contains(logs.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown in the log:\n%s", logs.String())
	}
	// Nothing outside the data directory; there, the database and the raw files.
	if entries, _ := os.ReadDir(cwd); len(entries) > 0 {
		t.Errorf("wrote into the working directory: %v", entries)
	}
	for _, p := range []string{"capplan.db", "files", "backup.tar"} {
		if _, err := os.Stat(filepath.Join(data, p)); err != nil {
			t.Errorf("data directory lacks %s: %v", p, err)
		}
	}
	if raw := rawFilesCount(t, filepath.Join(data, "files")); raw == 0 {
		t.Error("no raw files were written")
	}
}

func rawFilesCount(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n++
		}
		return nil
	})
	return n
}
