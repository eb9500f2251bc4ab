// Command genpasswords writes the list of common passwords that the store's
// password policy embeds: zxcvbn's frequency list, lower-cased, one a line,
// most common first. The list is written to a file rather than imported, so
// that the program does not build the library's tables when it starts.
//
//	go generate ./web/store
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/trustelem/zxcvbn/frequency"
)

func main() {
	out := flag.String("o", "common_passwords.txt", "output file")
	flag.Parse()
	if err := write(*out); err != nil {
		fmt.Fprintln(os.Stderr, "genpasswords:", err)
		os.Exit(1)
	}
}

func write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	seen := map[string]bool{}
	for _, p := range frequency.FrequencyLists["passwords"] {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" || seen[p] || strings.ContainsAny(p, "\n\r") {
			continue
		}
		seen[p] = true
		fmt.Fprintln(w, p)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
