package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPasswordPolicy(t *testing.T) {
	for _, tc := range []struct {
		pw, email string
		refused   string // a word of the reason; "" means accepted
	}{
		{"aaaaaaaaaa", "ann@example.com", "at least 12"},
		{"short pw", "ann@example.com", "at least 12"},
		{"aaaaaaaaaaaa", "ann@example.com", "different characters"},
		{"abababababab", "ann@example.com", "different characters"},
		{"123456789012", "ann@example.com", "digits only"},
		{"passwordpassword", "ann@example.com", "common"},
		{"qwertyuiopasdfgh", "ann@example.com", "common"},
		{"Password1234!", "ann@example.com", "common"},          // a common word with digits added
		{"football2026", "ann@example.com", "common"},           // likewise
		{"ann@example.com", "ann@example.com", "email"},         // the email itself
		{"ANN@EXAMPLE.COM", "ann@example.com", "email"},         // in any case
		{"annabelle.lee", "annabelle.lee@example.com", "email"}, // its name part
		{strings.Repeat("long enough ", 7), "ann@example.com", "at most 72"},
		{"correct horse battery", "ann@example.com", ""},
		{"Tarn-Vellum-Ochre-41", "ann@example.com", ""},
		{"zwölf Zeichen äöü", "ann@example.com", ""},
	} {
		err := CheckPassword(tc.pw, tc.email)
		var ie *InputError
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%q refused: %v", tc.pw, err)
		case tc.refused != "" && (!errors.As(err, &ie) || ie.Field != "password" || !strings.Contains(ie.Msg, tc.refused)):
			t.Errorf("%q: %v, want a password error about %q", tc.pw, err, tc.refused)
		}
	}
}

func TestPasswordPolicyHoldsOnEveryWayIn(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.CreateUser(ctx, "bo@example.com", "Bo", RoleLead, "bo@example.com"); err == nil {
		t.Error("create: the email as password accepted")
	}
	u, err := st.CreateUser(ctx, "bo@example.com", "Bo", RoleLead, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetPassword(ctx, u.ID, "password1234"); err == nil {
		t.Error("reset: a common password accepted")
	}
	if err := st.ChangePassword(ctx, u.ID, "correct horse battery", "BO@example.com"); err == nil {
		t.Error("change: the email as password accepted")
	}
	if _, err := st.Authenticate(ctx, "bo@example.com", "correct horse battery"); err != nil {
		t.Errorf("the refused changes changed the password: %v", err)
	}
}

func TestTokenUseIsNotedAtMostOnceAMinuteAndIsNoChange(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	st.SetClock(func() time.Time { return now })
	u, err := st.CreateUser(ctx, "ci@example.com", "CI", RoleLead, "correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.CreateAPIToken(ctx, u.ID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	lastUsed := func() time.Time {
		ts, _ := st.APITokens(ctx, u.ID)
		return ts[0].LastUsed
	}
	gen := st.Generation()
	var changes int
	st.w.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&changes)
	for i := range 30 {
		now = now.Add(time.Second)
		if _, err := st.APITokenUser(ctx, tok); err != nil {
			t.Fatal(err)
		}
		if i == 0 && !lastUsed().Equal(now) {
			t.Errorf("first use not noted: %v", lastUsed())
		}
	}
	var after int
	st.w.QueryRowContext(ctx, `SELECT total_changes()`).Scan(&after)
	if after-changes != 1 {
		t.Errorf("30 uses within a minute wrote %d rows, want 1", after-changes)
	}
	now = now.Add(time.Minute)
	st.APITokenUser(ctx, tok)
	if !lastUsed().Equal(now) {
		t.Errorf("a use a minute later not noted: %v, want %v", lastUsed(), now)
	}
	if st.Generation() != gen {
		t.Errorf("noting token use moved the write generation %d → %d", gen, st.Generation())
	}
}
