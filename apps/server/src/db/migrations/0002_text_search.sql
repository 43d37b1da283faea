-- Trigram indexes make the API's "contains" searches (filtersLike) index lookups instead of table scans.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
