-- Downloaded videos (the files live in DATA_DIR/videos/<id>/), assignments and claims.
CREATE TABLE videos (
  id                TEXT PRIMARY KEY,
  title             TEXT NOT NULL,
  duration_seconds  REAL NOT NULL DEFAULT 0,
  source_url        TEXT,
  video_file        TEXT,
  thumbnail_file    TEXT,
  subtitle_file     TEXT,
  info_file         TEXT,
  frame_count       INTEGER NOT NULL DEFAULT 0,
  state             TEXT NOT NULL DEFAULT 'downloaded' CHECK (state IN ('downloading', 'downloaded', 'failed')),
  is_sample         INTEGER NOT NULL DEFAULT 0,
  created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- The admin assigns a video to experts (many); an expert may claim an unclaimed video (one).
CREATE TABLE video_assignments (
  video_id     TEXT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  expert_id    TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  assigned_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (video_id, expert_id)
);
CREATE INDEX video_assignments_expert ON video_assignments(expert_id);

CREATE TABLE video_claims (
  video_id    TEXT PRIMARY KEY REFERENCES videos(id) ON DELETE CASCADE,
  expert_id   TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  claimed_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX video_claims_expert ON video_claims(expert_id);
