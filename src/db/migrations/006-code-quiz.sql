-- The code quiz (issue #15): classes of an expert's children, coding problems with test cases,
-- every hint asked for (suggestion_events, the contract's table name) and every code run.

CREATE TABLE classes (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  expert_id     TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  description   TEXT NOT NULL DEFAULT '',
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX classes_expert ON classes(expert_id);

CREATE TABLE class_enrolments (
  class_id    INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  child_id    TEXT NOT NULL REFERENCES children(id) ON DELETE CASCADE,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (class_id, child_id)
);
CREATE INDEX class_enrolments_child ON class_enrolments(child_id);

CREATE TABLE code_problems (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  class_id       INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  title          TEXT NOT NULL,
  prompt         TEXT NOT NULL,
  language       TEXT NOT NULL CHECK (language IN ('python', 'javascript')),
  starter_code   TEXT NOT NULL DEFAULT '',
  solution       TEXT NOT NULL,
  -- the offline hint material, computed once when the problem is saved: for each line of the
  -- solution, the novice mutations that were run against the tests and really fail one
  -- (JSON: [{line, distractors: [{text, kind}]}])
  hints_json     TEXT NOT NULL DEFAULT '[]',
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX code_problems_class ON code_problems(class_id);

CREATE TABLE code_problem_tests (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  problem_id       INTEGER NOT NULL REFERENCES code_problems(id) ON DELETE CASCADE,
  position         INTEGER NOT NULL,
  stdin            TEXT NOT NULL DEFAULT '',
  expected_stdout  TEXT NOT NULL,
  hidden           INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
  UNIQUE (problem_id, position)
);

-- One row per POST /suggest. Exactly one of child_id / expert_id says who asked (an expert
-- trying their own problem, or a child); admins are recorded with both NULL.
CREATE TABLE suggestion_events (
  id                INTEGER PRIMARY KEY AUTOINCREMENT,
  child_id          TEXT REFERENCES children(id) ON DELETE CASCADE,
  expert_id         TEXT REFERENCES experts(id) ON DELETE CASCADE,
  caller_role       TEXT NOT NULL CHECK (caller_role IN ('child', 'expert', 'admin')),
  class_id          INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  problem_id        INTEGER NOT NULL REFERENCES code_problems(id) ON DELETE CASCADE,
  language          TEXT NOT NULL,
  -- sha256 of the code as sent: enough to tell attempts apart without keeping a child's code
  code_sha256       TEXT NOT NULL,
  cursor_line       INTEGER NOT NULL,
  cursor_column     INTEGER NOT NULL,
  generator         TEXT NOT NULL,
  model             TEXT,
  suggestion        TEXT NOT NULL,
  distractors_json  TEXT NOT NULL DEFAULT '[]',
  explanation       TEXT NOT NULL DEFAULT '',
  latency_ms        INTEGER NOT NULL DEFAULT 0,
  -- the child's pick (POST /api/suggestions/{event_id}/answer): the text, and whether it was
  -- the suggestion or which distractor (index into distractors_json)
  choice            TEXT,
  choice_correct    INTEGER CHECK (choice_correct IS NULL OR choice_correct IN (0, 1)),
  choice_distractor INTEGER,
  answered_at       TEXT,
  created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX suggestion_events_class ON suggestion_events(class_id, created_at);
CREATE INDEX suggestion_events_child ON suggestion_events(child_id);
CREATE INDEX suggestion_events_problem ON suggestion_events(problem_id);

-- One row per POST /run that is stored (every run of a child or expert; admins' runs too).
CREATE TABLE runs (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  child_id      TEXT REFERENCES children(id) ON DELETE CASCADE,
  expert_id     TEXT REFERENCES experts(id) ON DELETE CASCADE,
  caller_role   TEXT NOT NULL CHECK (caller_role IN ('child', 'expert', 'admin')),
  class_id      INTEGER REFERENCES classes(id) ON DELETE CASCADE,
  problem_id    INTEGER REFERENCES code_problems(id) ON DELETE CASCADE,
  language      TEXT NOT NULL,
  code_sha256   TEXT NOT NULL,
  passed        INTEGER NOT NULL,
  total         INTEGER NOT NULL,
  -- passed: every case passed; failed: some output differed; error: a non-zero exit;
  -- timed_out: a case hit the wall or CPU limit
  status        TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'error', 'timed_out')),
  runtime_ms    INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX runs_class ON runs(class_id, created_at);
CREATE INDEX runs_child ON runs(child_id, problem_id);

-- Set once the demo class (DEMO_SEED) was created, so deleting it does not bring it back.
CREATE TABLE code_quiz_demo (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  class_id    INTEGER,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
