-- Mail is never given up (functions/mail/worker.ts): a row the worker used to mark 'failed' after 25
-- attempts (about 15 hours of SMTP outage) goes out again, and no row becomes 'failed' any more.
-- Mail that keeps failing is shown on the admin overview and by `npm run doctor` instead.
UPDATE mail_outbox SET status = 'pending', next_attempt_at = now(), locked_until = NULL WHERE status = 'failed';
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_status_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_status_check CHECK (status IN ('pending', 'sent'));
