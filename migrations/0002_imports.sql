-- Imported result files and the rows read from them.

-- Candidates of a report: the baseline and its variants, each with the
-- regression gate it passed or failed.
CREATE TABLE candidates (
	id          INTEGER PRIMARY KEY,
	report_id   INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	name        TEXT NOT NULL,
	data        TEXT NOT NULL DEFAULT '{}', -- planner.Candidate without rows, as JSON
	UNIQUE (report_id, name)
);

CREATE TABLE imports (
	id             INTEGER PRIMARY KEY,
	report_id      INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	candidate_id   INTEGER REFERENCES candidates(id) ON DELETE CASCADE, -- NULL: the report's main matrix
	file_name      TEXT NOT NULL,
	sha256         TEXT NOT NULL,
	format         TEXT NOT NULL,
	format_version TEXT NOT NULL DEFAULT '',
	tool_version   TEXT NOT NULL DEFAULT '',
	model          TEXT NOT NULL DEFAULT '',
	size_bytes     INTEGER NOT NULL,
	warnings       TEXT NOT NULL DEFAULT '[]', -- file-level warnings as JSON
	user_id        INTEGER NOT NULL REFERENCES users(id),
	at             TEXT NOT NULL,
	removed_at     TEXT NOT NULL DEFAULT '',
	removed_by     INTEGER REFERENCES users(id)
);
-- The same file may be imported into a report once (until removed).
CREATE UNIQUE INDEX imports_once ON imports(report_id, sha256) WHERE removed_at = '';

CREATE TABLE result_rows (
	id        INTEGER PRIMARY KEY,
	import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	idx       INTEGER NOT NULL,          -- position inside the file
	data      TEXT NOT NULL,             -- planner.Row as JSON (with source and paths)
	observed  TEXT NOT NULL DEFAULT '{}' -- planner.Observed typed by the lead
);
CREATE INDEX result_rows_report ON result_rows(report_id);
