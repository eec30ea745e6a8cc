-- Questions: AI results per segment, the expert's review set, companion variants and picks.
-- Segments are identified by (video_id, start_seconds, end_seconds) in whole seconds.

-- What a provider produced for one segment (the latest run for that range). A failed segment
-- keeps its structured error so the admin sees it and a re-run retries it.
CREATE TABLE question_segments (
  video_id       TEXT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  start_seconds  INTEGER NOT NULL,
  end_seconds    INTEGER NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('ok', 'error')),
  provider       TEXT NOT NULL,
  model          TEXT,
  questions_json TEXT,
  error_code     TEXT,
  error_message  TEXT,
  generated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (video_id, start_seconds, end_seconds),
  CHECK (end_seconds > start_seconds),
  CHECK ((status = 'ok') = (questions_json IS NOT NULL))
);

-- The expert's review state of a segment; `finalized` segments are what children are served.
CREATE TABLE review_segments (
  video_id       TEXT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  start_seconds  INTEGER NOT NULL,
  end_seconds    INTEGER NOT NULL,
  finalized      INTEGER NOT NULL DEFAULT 0 CHECK (finalized IN (0, 1)),
  finalized_at   TEXT,
  finalized_by   TEXT,
  updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (video_id, start_seconds, end_seconds),
  CHECK (end_seconds > start_seconds)
);

-- The review set: seeded from the AI result, then ranked, edited, trashed or written by experts.
-- `edited` = 1 once a person changed the segment's set, so a regeneration never overwrites it.
CREATE TABLE review_questions (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  video_id       TEXT NOT NULL,
  start_seconds  INTEGER NOT NULL,
  end_seconds    INTEGER NOT NULL,
  question_type  TEXT NOT NULL CHECK (question_type IN ('character', 'setting', 'feeling', 'action', 'causal', 'outcome', 'prediction')),
  question       TEXT NOT NULL,
  answer         TEXT NOT NULL,
  llm_ranking    INTEGER,
  expert_ranking INTEGER,
  trashed        INTEGER NOT NULL DEFAULT 0 CHECK (trashed IN (0, 1)),
  origin         TEXT NOT NULL CHECK (origin IN ('generated', 'expert', 'regenerated', 'imported')),
  provider       TEXT,
  edited         INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
  position       INTEGER NOT NULL DEFAULT 0,
  updated_by     TEXT,
  updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  FOREIGN KEY (video_id, start_seconds, end_seconds)
    REFERENCES review_segments(video_id, start_seconds, end_seconds) ON DELETE CASCADE
);
CREATE INDEX review_questions_segment ON review_questions(video_id, start_seconds, end_seconds);

-- A companion's rewording of one review question (the answer stays the question's own).
CREATE TABLE persona_variants (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  question_id  INTEGER NOT NULL REFERENCES review_questions(id) ON DELETE CASCADE,
  companion    TEXT NOT NULL CHECK (companion IN ('bunny', 'pig', 'alligator')),
  question     TEXT NOT NULL,
  provider     TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX persona_variants_question ON persona_variants(question_id);

-- The expert's pick: which variant a child with this companion hears for this segment.
CREATE TABLE persona_winners (
  video_id       TEXT NOT NULL,
  start_seconds  INTEGER NOT NULL,
  end_seconds    INTEGER NOT NULL,
  companion      TEXT NOT NULL CHECK (companion IN ('bunny', 'pig', 'alligator')),
  variant_id     INTEGER NOT NULL REFERENCES persona_variants(id) ON DELETE CASCADE,
  chosen_by      TEXT,
  chosen_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (video_id, start_seconds, end_seconds, companion),
  FOREIGN KEY (video_id, start_seconds, end_seconds)
    REFERENCES review_segments(video_id, start_seconds, end_seconds) ON DELETE CASCADE
);

-- Free notes of experts on a video, a segment or one question (question_id 0 = the segment).
CREATE TABLE expert_annotations (
  video_id       TEXT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
  start_seconds  INTEGER NOT NULL DEFAULT -1,
  end_seconds    INTEGER NOT NULL DEFAULT -1,
  question_id    INTEGER NOT NULL DEFAULT 0,
  author         TEXT NOT NULL,
  note           TEXT NOT NULL,
  updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (video_id, start_seconds, end_seconds, question_id, author)
);
