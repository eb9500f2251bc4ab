-- The report version at which each section of a report last changed. A
-- save is refused as stale only when its own section changed after the
-- version the user started from; saves of other sections merge.
CREATE TABLE section_versions (
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	section   TEXT NOT NULL,
	version   INTEGER NOT NULL,
	PRIMARY KEY (report_id, section)
);
INSERT INTO section_versions (report_id, section, version)
	SELECT report_id, section, MAX(version) FROM history GROUP BY report_id, section;
