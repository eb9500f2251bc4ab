-- API price quotes kept by finance in one shared library, and which reports
-- compare which quotes. A quote's prices are a planner.Quote as JSON; the
-- columns beside it are what the library lists and who changed it last.
CREATE TABLE quotes (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
	provider      TEXT NOT NULL DEFAULT '',
	model         TEXT NOT NULL DEFAULT '',
	region        TEXT NOT NULL DEFAULT '',
	currency      TEXT NOT NULL DEFAULT '',
	terms         TEXT NOT NULL DEFAULT '', -- the platform terms, as quoted
	source        TEXT NOT NULL DEFAULT '',
	evidence_date TEXT NOT NULL DEFAULT '', -- YYYY-MM-DD
	data          TEXT NOT NULL,            -- planner.Quote as JSON
	created_by    INTEGER NOT NULL REFERENCES users(id),
	created_at    TEXT NOT NULL,
	updated_by    INTEGER NOT NULL REFERENCES users(id),
	updated_at    TEXT NOT NULL
);

-- The quotes a report compares with self-hosting. Attaching and detaching
-- are report changes, recorded in the report's history.
CREATE TABLE report_quotes (
	report_id   INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	quote_id    INTEGER NOT NULL REFERENCES quotes(id),
	attached_by INTEGER NOT NULL REFERENCES users(id),
	attached_at TEXT NOT NULL,
	PRIMARY KEY (report_id, quote_id)
);
CREATE INDEX report_quotes_quote ON report_quotes(quote_id);
