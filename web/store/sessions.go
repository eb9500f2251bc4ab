package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// SessionTTL is how long a session lasts without logging in again.
const SessionTTL = 12 * time.Hour

// CreateSession starts a session for a user and returns its token (for the
// cookie); only the token's hash is stored.
func (s *Store) CreateSession(ctx context.Context, userID int64) (token string, expires time.Time, err error) {
	token, hash := newToken()
	now := s.now()
	expires = now.Add(SessionTTL)
	_, err = s.exec(ctx, `INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		hash, userID, stamp(now), stamp(expires))
	if err != nil {
		return "", time.Time{}, fmt.Errorf("store: create session: %w", err)
	}
	return token, expires, nil
}

// SessionUser returns the user of a live session, or ErrNotFound.
func (s *Store) SessionUser(ctx context.Context, token string) (User, error) {
	u, expires, err := s.Session(ctx, token)
	if err != nil {
		return User{}, err
	}
	if !s.SessionLive(expires) {
		return User{}, ErrNotFound
	}
	return u, nil
}

// SessionLive says whether a session that expires at expires is live now,
// by the store's clock.
func (s *Store) SessionLive(expires time.Time) bool { return s.now().Before(expires) }

// Session returns the user of a session, expired or not, and when it
// expires; ErrNotFound when there is no such session.
func (s *Store) Session(ctx context.Context, token string) (User, time.Time, error) {
	var expires string
	var u User
	var created string
	err := s.r.QueryRowContext(ctx, `SELECT u.id, u.email, u.name, u.role, u.created_at, s.expires_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`, hashToken(token)).
		Scan(&u.ID, &u.Email, &u.Name, &u.Role, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, time.Time{}, ErrNotFound
	}
	if err != nil {
		return User{}, time.Time{}, fmt.Errorf("store: session: %w", err)
	}
	u.CreatedAt = parseStamp(created)
	return u, parseStamp(expires), nil
}

// DeleteSession ends a session (logout).
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	_, err := s.exec(ctx, `DELETE FROM sessions WHERE token_hash = ?`, hashToken(token))
	return err
}

// DeleteExpiredSessions removes sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context) error {
	_, err := s.exec(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, stamp(s.now()))
	return err
}

// APIToken is a personal token for the HTTP API; the secret is shown once.
type APIToken struct {
	ID        int64
	Name      string
	CreatedAt time.Time
	LastUsed  time.Time
	Revoked   bool
}

// CreateAPIToken makes a personal API token and returns its secret.
func (s *Store) CreateAPIToken(ctx context.Context, userID int64, name string) (string, error) {
	if name == "" {
		return "", inputErr("name", "give the token a name, e.g. the CI job that uses it")
	}
	token, _ := newToken()
	token = "cp_" + token
	hash := hashToken(token)
	_, err := s.exec(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, created_at) VALUES (?, ?, ?, ?)`,
		userID, name, hash, stamp(s.now()))
	if err != nil {
		return "", fmt.Errorf("store: create token: %w", err)
	}
	return token, nil
}

// APITokens lists a user's tokens.
func (s *Store) APITokens(ctx context.Context, userID int64) ([]APIToken, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, name, created_at, last_used, revoked_at FROM api_tokens WHERE user_id = ? ORDER BY id`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: tokens: %w", err)
	}
	defer rows.Close()
	var out []APIToken
	for rows.Next() {
		var t APIToken
		var c, l, r string
		if err := rows.Scan(&t.ID, &t.Name, &c, &l, &r); err != nil {
			return nil, err
		}
		t.CreatedAt, t.LastUsed, t.Revoked = parseStamp(c), parseStamp(l), r != ""
		out = append(out, t)
	}
	return out, rows.Err()
}

// RevokeAPIToken revokes one of a user's tokens.
func (s *Store) RevokeAPIToken(ctx context.Context, userID, id int64) error {
	res, err := s.exec(ctx, `UPDATE api_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at = ''`, stamp(s.now()), id, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// TokenUseResolution is how often a token's last use is written down: at
// most once per token in this span, so that an API client does not turn
// every read into a database write.
const TokenUseResolution = time.Minute

// APITokenUser returns the owner of a live API token, or ErrNotFound. It
// notes the token's use when the last note is older than
// TokenUseResolution. That note is bookkeeping, not report data: it does
// not count as a change (Generation stays).
func (s *Store) APITokenUser(ctx context.Context, token string) (User, error) {
	var u User
	var created, lastUsed string
	var id int64
	err := s.r.QueryRowContext(ctx, `SELECT t.id, t.last_used, u.id, u.email, u.name, u.role, u.created_at
		FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? AND t.revoked_at = ''`, hashToken(token)).
		Scan(&id, &lastUsed, &u.ID, &u.Email, &u.Name, &u.Role, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return User{}, ErrNotFound
	}
	if err != nil {
		return User{}, err
	}
	u.CreatedAt = parseStamp(created)
	now := s.now()
	if cutoff := now.Add(-TokenUseResolution); parseStamp(lastUsed).Before(cutoff) {
		// The condition holds the rule when two requests race here. The
		// write bypasses exec on purpose: Generation must not move. Its
		// failure does not refuse the request: the note is bookkeeping.
		s.w.ExecContext(ctx, `UPDATE api_tokens SET last_used = ? WHERE id = ? AND last_used < ?`, stamp(now), id, stamp(cutoff))
	}
	return u, nil
}
