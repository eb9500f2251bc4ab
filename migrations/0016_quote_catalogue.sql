-- Quotes priced by a public price catalogue (LiteLLM, genai-prices): which
-- catalogue and which of its models, the catalogue's own figures as
-- imported (planner.CataloguePrice as JSON, what the next import is
-- compared with), the retrieval date, and whether the latest import of
-- that catalogue still lists the model. Hand-typed quotes leave them empty.
ALTER TABLE quotes ADD COLUMN catalogue TEXT NOT NULL DEFAULT '';
ALTER TABLE quotes ADD COLUMN catalogue_key TEXT NOT NULL DEFAULT '';
ALTER TABLE quotes ADD COLUMN catalogue_price TEXT NOT NULL DEFAULT '';
ALTER TABLE quotes ADD COLUMN retrieved TEXT NOT NULL DEFAULT ''; -- YYYY-MM-DD
ALTER TABLE quotes ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;
CREATE UNIQUE INDEX quotes_catalogue_key ON quotes(catalogue, catalogue_key) WHERE catalogue <> '';

-- Each catalogue import: the file, its retrieval date, and what it moved
-- (planner.CatalogueChanges and the skipped prices, as JSON).
CREATE TABLE quote_imports (
	id          INTEGER PRIMARY KEY,
	catalogue   TEXT NOT NULL,
	file        TEXT NOT NULL,
	sha256      TEXT NOT NULL,
	retrieved   TEXT NOT NULL,
	models      INTEGER NOT NULL,
	summary     TEXT NOT NULL,
	imported_by INTEGER NOT NULL REFERENCES users(id),
	imported_at TEXT NOT NULL
);
