-- Outgoing mail, written in the same transaction as what caused it; a worker sends it.
CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  recipient text NOT NULL CHECK (length(recipient) BETWEEN 3 AND 320),
  subject text NOT NULL,
  html text NOT NULL,
  text text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'tr')),
  kind text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  last_error text,
  -- 'smtp' or 'mailbox' (kept for the dev mailbox page).
  delivered_via text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (recipient, created_at DESC);
