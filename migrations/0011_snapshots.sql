-- The inputs of an approved report, kept when it was approved (the
-- planner's Inputs as JSON, attached quotes' figures included): an
-- approved report is computed from its snapshot, never from live data.
CREATE TABLE snapshots (
	id        INTEGER PRIMARY KEY,
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	at        TEXT NOT NULL,
	inputs    TEXT NOT NULL
);
CREATE INDEX snapshots_report ON snapshots(report_id);
