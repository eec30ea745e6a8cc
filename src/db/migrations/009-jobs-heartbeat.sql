-- Jobs across processes and machines (issue #18): a worker that runs a job refreshes
-- heartbeat_at every JOB_HEARTBEAT_SECONDS; any instance marks a job failed when its heartbeat is
-- older than JOB_HEARTBEAT_TIMEOUT_SECONDS (its worker died). cancel_requested ('admin' or
-- 'shutdown') is how an instance asks the one running the job to stop it. Both ISO text / plain
-- text, set by the application (src/jobs/jobs.repository.ts), so both engines run the same SQL.
ALTER TABLE jobs ADD COLUMN heartbeat_at TEXT;
ALTER TABLE jobs ADD COLUMN cancel_requested TEXT;
