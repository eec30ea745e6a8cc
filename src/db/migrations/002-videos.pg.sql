-- PostgreSQL text of 002-videos.sql (same tables, columns and indexes; a test compares the two engines).
-- Differences: ISO-text timestamp defaults via to_char (same text as JS toISOString), identity
-- columns for SQLite's autoincrement keys, DOUBLE PRECISION for floats (PostgreSQL's 4-byte float
-- type would round them), BIGINT for epoch milliseconds.
-- Downloaded videos, assignments, claims and per-video job locks.
-- Media files live in DATA_DIR/videos/<id>/; the *_file columns hold bare file names inside that
-- directory (e.g. 'video.mp4', 'thumbnail.jpg', 'video.en.vtt', 'info.json'), never paths.
-- Frames are DATA_DIR/videos/<id>/frames/frame_00000.jpg … with frames.json and frames.csv;
-- frame_count is the number of frames of the last complete extraction (0 = none).
CREATE TABLE videos (
  id                TEXT PRIMARY KEY,
  title             TEXT NOT NULL,
  duration_seconds  DOUBLE PRECISION NOT NULL DEFAULT 0,
  source_url        TEXT,
  video_file        TEXT,
  thumbnail_file    TEXT,
  subtitle_file     TEXT,
  info_file         TEXT,
  frame_count       INTEGER NOT NULL DEFAULT 0,
  -- 'downloading': first download of this id still running (the row is removed if it fails)
  state             TEXT NOT NULL DEFAULT 'downloaded' CHECK (state IN ('downloading', 'downloaded', 'failed')),
  is_sample         INTEGER NOT NULL DEFAULT 0,
  created_at        TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  updated_at        TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);

-- The admin assigns a video to experts (many); an expert may claim an unclaimed video (one).
CREATE TABLE video_assignments (
  video_id     TEXT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  expert_id    TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  assigned_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  PRIMARY KEY (video_id, expert_id)
);
CREATE INDEX video_assignments_expert ON video_assignments(expert_id);

CREATE TABLE video_claims (
  video_id    TEXT PRIMARY KEY REFERENCES videos(id) ON DELETE CASCADE,
  expert_id   TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  claimed_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);
CREATE INDEX video_claims_expert ON video_claims(expert_id);

-- One running job per key ('video:<id>' for downloads and frame extraction, 'url:<hash>' while a
-- link's video id is not yet known). A second job on the same key is refused. The table is
-- emptied at start: a lock cannot outlive the process that held it.
CREATE TABLE video_locks (
  key         TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('download', 'frames')),
  owner       TEXT NOT NULL,
  started_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);
