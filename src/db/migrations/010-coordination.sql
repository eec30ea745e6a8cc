-- State that must agree between several web instances (issue #18), kept in the database so two
-- instances behave as one: sliding-window rate limits (code runs and hints, AI-judge budget) and
-- short leases (one question-generation run per video). Times are epoch milliseconds.
CREATE TABLE rate_hits (
  key  TEXT NOT NULL,
  at   INTEGER NOT NULL
);
CREATE INDEX rate_hits_key_at ON rate_hits(key, at);

CREATE TABLE leases (
  name        TEXT PRIMARY KEY,
  owner       TEXT NOT NULL,
  expires_at  INTEGER NOT NULL
);
