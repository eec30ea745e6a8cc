-- See 010-coordination.sql. Epoch milliseconds need BIGINT here.
CREATE TABLE rate_hits (
  key  TEXT NOT NULL,
  at   BIGINT NOT NULL
);
CREATE INDEX rate_hits_key_at ON rate_hits(key, at);

CREATE TABLE leases (
  name        TEXT PRIMARY KEY,
  owner       TEXT NOT NULL,
  expires_at  BIGINT NOT NULL
);
