-- The review workflow: a report is a draft, in review or approved (then
-- read-only); a revision links to the approved report it started from.
-- Comments on report sections, readable by everyone who can read the report.

ALTER TABLE reports ADD COLUMN state TEXT NOT NULL DEFAULT 'draft'
	CHECK (state IN ('draft', 'in_review', 'approved'));
ALTER TABLE reports ADD COLUMN approved_at TEXT NOT NULL DEFAULT '';
ALTER TABLE reports ADD COLUMN approved_by INTEGER REFERENCES users(id);
ALTER TABLE reports ADD COLUMN predecessor_id INTEGER REFERENCES reports(id);
CREATE INDEX reports_predecessor ON reports(predecessor_id);

CREATE TABLE comments (
	id        INTEGER PRIMARY KEY,
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	section   TEXT NOT NULL,             -- the report section's anchor, e.g. "costs"
	user_id   INTEGER NOT NULL REFERENCES users(id),
	at        TEXT NOT NULL,
	body      TEXT NOT NULL CHECK (body <> '')
);
CREATE INDEX comments_report ON comments(report_id, id);
