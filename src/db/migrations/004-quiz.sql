-- Quiz attempts (one row per finished play-through of a video by a child) and their answers.
-- video_id is not a foreign key on purpose: a child's history outlives a deleted video
-- (video_title keeps the name it had when the attempt was saved).
CREATE TABLE quiz_attempts (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  child_id          TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
  video_id          TEXT NOT NULL,
  video_title       TEXT NOT NULL DEFAULT '',
  companion         TEXT CHECK (companion IS NULL OR companion IN ('bunny', 'pig', 'alligator')),
  interaction_mode  TEXT NOT NULL CHECK (interaction_mode IN ('strict', 'flexible', 'passive')),
  -- 0..100; NULL when there is nothing to score (passive mode, no question answered)
  percentage        REAL CHECK (percentage IS NULL OR (percentage >= 0 AND percentage <= 100)),
  total_retries     INTEGER NOT NULL DEFAULT 0 CHECK (total_retries >= 0),
  watch_minutes     REAL NOT NULL DEFAULT 0 CHECK (watch_minutes >= 0),
  question_count    INTEGER NOT NULL DEFAULT 0,
  correct_count     INTEGER NOT NULL DEFAULT 0,
  almost_count      INTEGER NOT NULL DEFAULT 0,
  wrong_count       INTEGER NOT NULL DEFAULT 0,
  created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX quiz_attempts_child ON quiz_attempts(child_id, created_at);
CREATE INDEX quiz_attempts_video ON quiz_attempts(video_id);

CREATE TABLE quiz_answers (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  attempt_id           INTEGER NOT NULL REFERENCES quiz_attempts(id) ON DELETE CASCADE,
  position             INTEGER NOT NULL,
  question             TEXT NOT NULL DEFAULT '',
  question_type        TEXT,
  expected             TEXT NOT NULL DEFAULT '',
  -- what the child said (the transcript)
  user_answer          TEXT NOT NULL DEFAULT '',
  status               TEXT CHECK (status IS NULL OR status IN ('correct', 'almost', 'wrong', 'skipped')),
  similarity           REAL CHECK (similarity IS NULL OR (similarity >= 0 AND similarity <= 1)),
  segment_range_start  INTEGER,
  segment_range_end    INTEGER,
  retries              INTEGER NOT NULL DEFAULT 0 CHECK (retries >= 0),
  -- other scalar keys the player sent with the detail, as a JSON object (small, capped)
  extra_json           TEXT,
  UNIQUE (attempt_id, position)
);
CREATE INDEX quiz_answers_attempt ON quiz_answers(attempt_id);

-- Where a child left a video (saved when leaving the player, deleted when the attempt is saved):
-- one per child and video. Its answers so far are a JSON array of the same detail objects.
CREATE TABLE quiz_checkpoints (
  child_id          TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
  video_id          TEXT NOT NULL,
  position_seconds  REAL NOT NULL DEFAULT 0 CHECK (position_seconds >= 0),
  furthest_seconds  REAL NOT NULL DEFAULT 0 CHECK (furthest_seconds >= 0),
  duration_seconds  REAL CHECK (duration_seconds IS NULL OR duration_seconds >= 0),
  watch_minutes     REAL NOT NULL DEFAULT 0 CHECK (watch_minutes >= 0),
  interaction_mode  TEXT CHECK (interaction_mode IS NULL OR interaction_mode IN ('strict', 'flexible', 'passive')),
  companion         TEXT CHECK (companion IS NULL OR companion IN ('bunny', 'pig', 'alligator')),
  total_retries     INTEGER NOT NULL DEFAULT 0 CHECK (total_retries >= 0),
  details_json      TEXT NOT NULL DEFAULT '[]',
  updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (child_id, video_id)
);
