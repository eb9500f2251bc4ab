-- The report's typed-in sections other than the contract (admission
-- override, overload test, residency, costs, scenarios, recommendation,
-- ...), each a JSON document of the planner's input type.
CREATE TABLE report_sections (
	report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
	section   TEXT NOT NULL,
	data      TEXT NOT NULL,
	PRIMARY KEY (report_id, section)
);
