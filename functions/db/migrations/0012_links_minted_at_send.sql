-- Every expiring link in a mail (sign-in, password reset, address verification) gets its token when
-- the mail leaves, not when it is queued: mail held back (no SMTP yet, an outage) never arrives dead.
-- The row keeps what to mint; the body keeps a slot where the token goes.
ALTER TABLE mail_outbox ADD COLUMN link_token jsonb
  CHECK (link_token IS NULL OR link_token->>'kind' IN ('sign_in', 'password_reset', 'verify_email'));
UPDATE mail_outbox SET link_token = jsonb_build_object('kind', 'sign_in', 'email', sign_in_email) WHERE sign_in_email IS NOT NULL;
ALTER TABLE mail_outbox DROP COLUMN sign_in_email;
