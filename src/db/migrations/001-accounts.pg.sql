-- PostgreSQL text of 001-accounts.sql (same tables, columns and indexes; a test compares the two engines).
-- Differences: ISO-text timestamp defaults via to_char (same text as JS toISOString), identity
-- columns for SQLite's autoincrement keys, DOUBLE PRECISION for floats (PostgreSQL's 4-byte float
-- type would round them), BIGINT for epoch milliseconds.
-- People, their access codes, sessions and login throttling.
CREATE TABLE experts (
  id            TEXT PRIMARY KEY,
  display_name  TEXT NOT NULL,
  active        INTEGER NOT NULL DEFAULT 1,
  created_at    TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  updated_at    TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);

CREATE TABLE parents (
  id            TEXT PRIMARY KEY,
  expert_id     TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  display_name  TEXT NOT NULL,
  is_default    INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);
CREATE INDEX parents_expert ON parents(expert_id);
CREATE UNIQUE INDEX parents_one_default ON parents(expert_id) WHERE is_default = 1;

CREATE TABLE children (
  id                TEXT PRIMARY KEY CHECK (length(id) = 6),
  expert_id         TEXT NOT NULL REFERENCES experts(id) ON DELETE CASCADE,
  parent_id         TEXT REFERENCES parents(id) ON DELETE SET NULL,
  first_name        TEXT NOT NULL,
  last_name         TEXT NOT NULL DEFAULT '',
  icon_key          TEXT NOT NULL DEFAULT 'star',
  interaction_mode  TEXT NOT NULL DEFAULT 'flexible' CHECK (interaction_mode IN ('strict', 'flexible', 'passive')),
  active            INTEGER NOT NULL DEFAULT 1,
  created_at        TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  updated_at        TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
);
CREATE INDEX children_expert ON children(expert_id);
CREATE INDEX children_parent ON children(parent_id);

-- One row per access code. The primary key is an HMAC of the code (lookup without the plain
-- code), which also makes codes unique across experts and parents; code_enc is the code
-- encrypted with the server secret so it can be shown back to its owner.
CREATE TABLE access_codes (
  code_hash   TEXT PRIMARY KEY,
  code_enc    TEXT NOT NULL,
  owner_kind  TEXT NOT NULL CHECK (owner_kind IN ('expert', 'parent')),
  owner_id    TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
  UNIQUE (owner_kind, owner_id)
);

CREATE TABLE sessions (
  sid         TEXT PRIMARY KEY,
  sess        TEXT NOT NULL,
  expires_at  BIGINT NOT NULL
);
CREATE INDEX sessions_expires ON sessions(expires_at);

-- Failed-login counters, per client address and per account key (both HMACed).
CREATE TABLE login_throttle (
  key           TEXT PRIMARY KEY,
  failures      INTEGER NOT NULL,
  window_start  BIGINT NOT NULL,
  locked_until  BIGINT NOT NULL DEFAULT 0
);
