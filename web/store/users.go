package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// Role is what a user may do.
type Role string

// The roles.
const (
	RoleAdmin    Role = "admin"
	RoleLead     Role = "lead"
	RoleReviewer Role = "reviewer"
	RoleFinance  Role = "finance"
)

// Roles lists every role, in the order forms show them.
var Roles = []Role{RoleLead, RoleReviewer, RoleFinance, RoleAdmin}

// ValidRole reports whether r is a known role.
func ValidRole(r string) bool {
	for _, x := range Roles {
		if string(x) == r {
			return true
		}
	}
	return false
}

// User is a person with an account.
type User struct {
	ID        int64
	Email     string
	Name      string
	Role      Role
	CreatedAt time.Time
}

// Display is the name shown on pages: the name, else the email.
func (u User) Display() string {
	if u.Name != "" {
		return u.Name
	}
	return u.Email
}

// BcryptCost is the bcrypt work factor of new password hashes. Tests lower
// it; production keeps the default.
var BcryptCost = 12

// ErrBadLogin is returned for an unknown email or a wrong password alike.
var ErrBadLogin = errors.New("email or password is wrong")

// ErrExists is returned when a unique value is already taken.
var ErrExists = errors.New("already exists")

// CreateUser adds a user with a bcrypt-hashed password.
func (s *Store) CreateUser(ctx context.Context, email, name string, role Role, password string) (User, error) {
	email = strings.TrimSpace(email)
	if !strings.Contains(email, "@") && email != "admin" {
		return User{}, inputErr("email", fmt.Sprintf("%q is not an email address", email))
	}
	if !ValidRole(string(role)) {
		return User{}, inputErr("role", fmt.Sprintf("%q is not one of admin, lead, reviewer, finance", role))
	}
	if err := CheckPassword(password, email); err != nil {
		return User{}, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), BcryptCost)
	if err != nil {
		return User{}, fmt.Errorf("store: hash password: %w", err)
	}
	now := s.now()
	res, err := s.exec(ctx, `INSERT INTO users (email, name, role, password_hash, created_at) VALUES (?, ?, ?, ?, ?)`,
		email, strings.TrimSpace(name), role, string(hash), stamp(now))
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return User{}, fmt.Errorf("email: %s %w", email, ErrExists)
		}
		return User{}, fmt.Errorf("store: create user: %w", err)
	}
	id, _ := res.LastInsertId()
	return User{ID: id, Email: email, Name: strings.TrimSpace(name), Role: role, CreatedAt: now}, nil
}

// CountUsers returns how many accounts exist.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	return n, err
}

// Users lists every account by email.
func (s *Store) Users(ctx context.Context) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, email, name, role, created_at FROM users ORDER BY email`)
	if err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// User returns one account by id.
func (s *Store) User(ctx context.Context, id int64) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT id, email, name, role, created_at FROM users WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrNotFound
	}
	return u, err
}

// UserByEmail returns one account by email.
func (s *Store) UserByEmail(ctx context.Context, email string) (User, error) {
	u, err := scanUser(s.r.QueryRowContext(ctx, `SELECT id, email, name, role, created_at FROM users WHERE email = ?`, strings.TrimSpace(email)))
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrNotFound
	}
	return u, err
}

type scanner interface{ Scan(...any) error }

func scanUser(row scanner) (User, error) {
	var u User
	var created string
	if err := row.Scan(&u.ID, &u.Email, &u.Name, &u.Role, &created); err != nil {
		return User{}, err
	}
	u.CreatedAt = parseStamp(created)
	return u, nil
}

// SetRole changes a user's role.
func (s *Store) SetRole(ctx context.Context, id int64, role Role) error {
	if !ValidRole(string(role)) {
		return inputErr("role", fmt.Sprintf("%q is not one of admin, lead, reviewer, finance", role))
	}
	_, err := s.exec(ctx, `UPDATE users SET role = ? WHERE id = ?`, role, id)
	return err
}

// Authenticate checks an email and password. It only reads: repeated
// failures are slowed down by the web layer per client address, so that
// nobody elsewhere can lock an account. An unknown email costs the same
// bcrypt comparison as a known one and gets the same ErrBadLogin.
func (s *Store) Authenticate(ctx context.Context, email, password string) (User, error) {
	var u User
	var hash, created string
	err := s.r.QueryRowContext(ctx, `SELECT id, email, name, role, created_at, password_hash FROM users WHERE email = ?`,
		strings.TrimSpace(email)).Scan(&u.ID, &u.Email, &u.Name, &u.Role, &created, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return User{}, ErrBadLogin
	}
	if err != nil {
		return User{}, fmt.Errorf("store: authenticate: %w", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) != nil {
		return User{}, ErrBadLogin
	}
	u.CreatedAt = parseStamp(created)
	return u, nil
}

// dummyHash12 is a bcrypt hash at the default cost of a password no account
// has, written out so that no program pays for hashing it at start.
const dummyHash12 = "$2a$12$6eXwF.X.pM9jB9ZRibWiNOzIYOjplQR0g5Wgg0sJM47XLpCpohYPG"

var dummyHashes sync.Map // cost → hash, for costs other than 12 (tests)

// dummyHash returns a hash at BcryptCost for unknown emails to be checked
// against, so that they take as long as known ones.
func dummyHash() []byte {
	if BcryptCost == 12 {
		return []byte(dummyHash12)
	}
	if h, ok := dummyHashes.Load(BcryptCost); ok {
		return h.([]byte)
	}
	h, _ := bcrypt.GenerateFromPassword([]byte("no account has this password"), BcryptCost)
	v, _ := dummyHashes.LoadOrStore(BcryptCost, h)
	return v.([]byte)
}

// ChangePassword sets a new password after checking the old one.
func (s *Store) ChangePassword(ctx context.Context, id int64, old, new string) error {
	var hash string
	if err := s.r.QueryRowContext(ctx, `SELECT password_hash FROM users WHERE id = ?`, id).Scan(&hash); err != nil {
		return fmt.Errorf("store: change password: %w", err)
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), []byte(old)) != nil {
		return inputErr("current password", "is wrong")
	}
	return s.SetPassword(ctx, id, new)
}

// SetPassword sets a password without the old one (admin reset) and ends
// the user's sessions.
func (s *Store) SetPassword(ctx context.Context, id int64, pw string) error {
	var email string
	if err := s.r.QueryRowContext(ctx, `SELECT email FROM users WHERE id = ?`, id).Scan(&email); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		return fmt.Errorf("store: set password: %w", err)
	}
	if err := CheckPassword(pw, email); err != nil {
		return err
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), BcryptCost)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, string(h), id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ?`, id)
		return err
	})
}

// newToken returns a random URL-safe token and its sha256 in hex.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}
