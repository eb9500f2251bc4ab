package store

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
	"unicode"
)

//go:generate go run ./internal/genpasswords -o common_passwords.txt

// The password policy: long enough, not one of the passwords attackers try
// first, and not the account's own email.
const (
	MinPasswordLen   = 12
	MaxPasswordBytes = 72 // bcrypt reads no further
	minDistinctRunes = 5
)

// commonPasswordList is the most common passwords, lower-cased, one a line
// (zxcvbn's frequency list, about 30,000 entries; written by go generate).
//
//go:embed common_passwords.txt
var commonPasswordList string

// commonPasswords is commonPasswordList as a set, built on first use, not
// when the program starts.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, strings.Count(commonPasswordList, "\n"))
	for p := range strings.Lines(commonPasswordList) {
		set[strings.TrimSuffix(p, "\n")] = struct{}{}
	}
	return set
})

// PasswordRule states the policy CheckPassword enforces, for the forms
// that ask for a new password.
func PasswordRule() string {
	return fmt.Sprintf("at least %d characters and %d different ones; not digits only, not your email, not a common password", MinPasswordLen, minDistinctRunes)
}

// CheckPassword returns an error naming the rule a new password for the
// account email breaks, or nil.
func CheckPassword(pw, email string) error {
	if len([]rune(pw)) < MinPasswordLen {
		return inputErr("password", fmt.Sprintf("must be at least %d characters", MinPasswordLen))
	}
	if len(pw) > MaxPasswordBytes {
		return inputErr("password", fmt.Sprintf("must be at most %d bytes", MaxPasswordBytes))
	}
	lower := strings.ToLower(pw)
	email = strings.ToLower(strings.TrimSpace(email))
	if local, _, _ := strings.Cut(email, "@"); email != "" && (lower == email || lower == local) {
		return inputErr("password", "must not be the email address")
	}
	if strings.Trim(pw, "0123456789") == "" {
		return inputErr("password", "must not be digits only")
	}
	if isCommonPassword(lower) {
		return inputErr("password", "is one of the most common passwords; choose one nobody would guess")
	}
	distinct := map[rune]bool{}
	for _, r := range pw {
		distinct[r] = true
	}
	if len(distinct) < minDistinctRunes {
		return inputErr("password", fmt.Sprintf("must use at least %d different characters", minDistinctRunes))
	}
	return nil
}

// isCommonPassword reports whether a lower-cased password is a common one,
// also when digits or punctuation are merely added at its end
// ("password1234!") or when it is two common ones run together
// ("qwertyuiopasdfgh").
func isCommonPassword(lower string) bool {
	set := commonPasswords()
	common := func(s string) bool { _, ok := set[s]; return ok }
	if common(lower) {
		return true
	}
	stem := strings.TrimRightFunc(lower, func(r rune) bool { return unicode.IsDigit(r) || unicode.IsPunct(r) || unicode.IsSymbol(r) })
	if len(stem) >= 4 && stem != lower && common(stem) {
		return true
	}
	for i := 4; i <= len(stem)-4; i++ {
		if common(stem[:i]) && common(stem[i:]) {
			return true
		}
	}
	return false
}
