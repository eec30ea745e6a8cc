-- PostgreSQL text of 009-jobs-heartbeat.sql (the same columns; a test compares the two engines).
-- Jobs across processes and machines (issue #18): a worker that runs a job refreshes
-- heartbeat_at every JOB_HEARTBEAT_SECONDS; any instance marks a job failed when its heartbeat is
-- older than JOB_HEARTBEAT_TIMEOUT_SECONDS (its worker died). cancel_requested ('admin' or
-- 'shutdown') is how an instance asks the one running the job to stop it. Both set by the
-- application (src/jobs/jobs.repository.ts): ISO text, as on SQLite.
ALTER TABLE jobs ADD COLUMN heartbeat_at TEXT;
ALTER TABLE jobs ADD COLUMN cancel_requested TEXT;
