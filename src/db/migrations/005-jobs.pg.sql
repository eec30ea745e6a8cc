-- PostgreSQL text of 005-jobs.sql (same tables, columns and indexes; a test compares the two engines).
-- Differences: ISO-text timestamp defaults via to_char (same text as JS toISOString), identity
-- columns for SQLite's autoincrement keys, DOUBLE PRECISION for floats (PostgreSQL's 4-byte float
-- type would round them), BIGINT for epoch milliseconds.
-- Background jobs (downloads, frame extraction): one row per job, written by the in-process
-- worker (src/jobs/). A later queue engine (pg-boss on PostgreSQL) keeps the same fields.
--   state:    queued -> running -> succeeded | failed | cancelled (queued -> cancelled too)
--   progress: 0..1, written at most a few times a second while running
--   input:    JSON the job was enqueued with (e.g. {"url": …}); result: JSON the job answered
--   error:    a message a person can read when the job failed or was cancelled
-- A row left 'running' when the process died is marked 'failed' at the next start (src/jobs/local-queue.ts).
CREATE TABLE jobs (
  id           TEXT PRIMARY KEY,
  kind         TEXT NOT NULL CHECK (kind IN ('download', 'frames')),
  video_id     TEXT,
  state        TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  progress     DOUBLE PRECISION NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  message      TEXT NOT NULL DEFAULT '',
  input        TEXT NOT NULL DEFAULT '{}',
  result       TEXT,
  error        TEXT,
  created_at   TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  started_at   TEXT,
  finished_at  TEXT
);
CREATE INDEX jobs_state ON jobs(state, created_at);
CREATE INDEX jobs_created ON jobs(created_at);
