-- Work the server does in the background (docs/decisions/0028-background-jobs.md).

-- "Notify buyers" on a course save: the intent, written in the transaction that makes the new
-- version, expanded into one course_update_notices row and mail per buyer by a worker in every server
-- instance (functions/jobs/course-update-runs.ts), batch by batch. A batch holds this row's lock
-- (FOR UPDATE SKIP LOCKED), so two instances never work on one run at once; the notices' primary key
-- keeps anyone from being mailed twice whatever happens.
CREATE TABLE course_update_runs (
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  pdf_version integer NOT NULL,
  -- When this version replaced the previous file: buyers before it are told, in mails dated with it.
  version_updated_at timestamptz NOT NULL,
  -- Buyers who wanted these mails when the save asked (what "Notifying N buyers…" says).
  buyer_count integer NOT NULL CHECK (buyer_count >= 0),
  requested_at timestamptz NOT NULL DEFAULT now(),
  -- NULL while buyers remain to be considered.
  finished_at timestamptz,
  PRIMARY KEY (course_id, pdf_version)
);
CREATE INDEX course_update_runs_pending_idx ON course_update_runs (requested_at) WHERE finished_at IS NULL;

-- Periodic tasks shared by all instances: one row per task, locked (SKIP LOCKED) by the instance
-- that runs it, and when it last ran, so N instances run it once per period, not N times.
CREATE TABLE periodic_tasks (
  task text PRIMARY KEY,
  last_run_at timestamptz
);
