-- One runner for every background job (functions/jobs/runner.ts, docs/decisions/0032-one-job-runner.md).

-- periodic_tasks becomes the table of every job: a periodic job's row is still locked (SKIP LOCKED)
-- by the instance that runs it and records when it last ran; every job's health is kept beside it,
-- so the overview and the doctor on any instance see a job failing on another.
ALTER TABLE periodic_tasks RENAME TO jobs;
ALTER TABLE jobs RENAME COLUMN task TO name;
ALTER TABLE jobs RENAME CONSTRAINT periodic_tasks_pkey TO jobs_pkey;
ALTER TABLE jobs
  ADD COLUMN last_success_at timestamptz,
  -- NULL while the job works; since when it has failed without a success in between.
  ADD COLUMN failing_since timestamptz,
  ADD COLUMN last_error text CHECK (length(last_error) <= 1000);

-- The blog scheduler's clock is the blog-schedule job's last success: posts whose time came since then
-- are announced by the next run, whichever instance runs it.
INSERT INTO jobs (name, last_run_at, last_success_at)
  SELECT 'blog-schedule', checked_until, checked_until FROM blog_schedule_clock;
DROP TABLE blog_schedule_clock;
