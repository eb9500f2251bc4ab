-- Accounts, sessions, reports and their history.

CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	email         TEXT NOT NULL UNIQUE COLLATE NOCASE,
	name          TEXT NOT NULL DEFAULT '',
	role          TEXT NOT NULL CHECK (role IN ('admin', 'lead', 'reviewer', 'finance')),
	password_hash TEXT NOT NULL,
	created_at    TEXT NOT NULL,
	-- failed logins in a row and, after too many, the time until which login is refused
	failed_logins INTEGER NOT NULL DEFAULT 0,
	locked_until  TEXT NOT NULL DEFAULT ''
);

-- Server-side sessions: the cookie holds a random token, the table its sha256.
CREATE TABLE sessions (
	token_hash TEXT PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Personal API tokens, stored hashed.
CREATE TABLE api_tokens (
	id         INTEGER PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	token_hash TEXT NOT NULL UNIQUE,
	created_at TEXT NOT NULL,
	last_used  TEXT NOT NULL DEFAULT '',
	revoked_at TEXT NOT NULL DEFAULT ''
);

CREATE TABLE reports (
	id         INTEGER PRIMARY KEY,
	title      TEXT NOT NULL,
	owner_id   INTEGER NOT NULL REFERENCES users(id),
	-- version increases on every change; a save based on an older version is refused
	version    INTEGER NOT NULL DEFAULT 1,
	contract   TEXT NOT NULL DEFAULT '{}', -- planner.Contract as JSON
	frozen_at  TEXT NOT NULL DEFAULT '',
	frozen_by  INTEGER REFERENCES users(id),
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
);

-- Leads other than the owner who may edit a report.
CREATE TABLE report_editors (
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	PRIMARY KEY (report_id, user_id)
);

-- Changes to a frozen contract's objective, workload or rows.
CREATE TABLE amendments (
	id              INTEGER PRIMARY KEY,
	report_id       INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	field           TEXT NOT NULL,
	old_value       TEXT NOT NULL,
	new_value       TEXT NOT NULL,
	reason          TEXT NOT NULL CHECK (reason <> ''),
	loosened        INTEGER NOT NULL DEFAULT 0,
	results_existed INTEGER NOT NULL DEFAULT 0,
	user_id         INTEGER NOT NULL REFERENCES users(id),
	at              TEXT NOT NULL
);
CREATE INDEX amendments_report ON amendments(report_id);

-- Every change to a report: who, when, what, before and after.
CREATE TABLE history (
	id        INTEGER PRIMARY KEY,
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	version   INTEGER NOT NULL, -- the report version this change produced
	user_id   INTEGER NOT NULL REFERENCES users(id),
	at        TEXT NOT NULL,
	action    TEXT NOT NULL,
	section   TEXT NOT NULL DEFAULT '',
	before    TEXT NOT NULL DEFAULT '',
	after     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX history_report ON history(report_id, id);
