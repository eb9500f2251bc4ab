-- The per-request records of a row (latencies, output tokens, success; no
-- prompts or answers), packed as described in web/store/samples.go; NULL
-- when the file holds only aggregates.
ALTER TABLE result_rows ADD COLUMN samples BLOB;
