-- PostgreSQL text of 007-library-sample.sql (same tables, columns and indexes; a test compares the two engines).
-- Differences: ISO-text timestamp defaults via to_char (same text as JS toISOString), identity
-- columns for SQLite's autoincrement keys, DOUBLE PRECISION for floats (PostgreSQL's 4-byte float
-- type would round them), BIGINT for epoch milliseconds.
-- Videos an admin deleted. The bundled sample is re-imported on start only when its row is
-- missing; a row here means "deleted on purpose", so the import leaves it deleted.
CREATE TABLE deleted_videos (
  id          TEXT PRIMARY KEY,
  title       TEXT NOT NULL DEFAULT '',
  is_sample   INTEGER NOT NULL DEFAULT 0,
  deleted_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);

-- The sample is now a library video like any other (seen through an assignment or a claim, no
-- longer by everyone). Installs that already have it keep the demo family's experience: it is
-- assigned to the demo expert when both exist.
INSERT INTO video_assignments (video_id, expert_id)
  SELECT v.id, e.id FROM videos v JOIN experts e ON e.id = 'demo'
   WHERE v.is_sample = 1
  ON CONFLICT DO NOTHING;
