-- Secrets the instances of one installation must share (issue #18). With DATABASE_URL set and no
-- SESSION_SECRET, the server secret (cookie signing, access-code hashing and encryption) is
-- generated once by whichever instance starts first and kept here ('session'), so every instance
-- agrees. The embedded SQLite engine keeps its secret in DATA_DIR/secret.key as before and leaves
-- this table empty (a copy of the SQLite file alone does not give the codes away).
CREATE TABLE app_secrets (
  name        TEXT PRIMARY KEY,
  value       TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
