-- Broadcasts (issue 39): a message the seller writes once and sends to part of the list. Its
-- recipients are fixed when it starts (broadcast_recipients) and fed to the outbox at the shop's
-- sending rate by the broadcast-sending job; each mail is checked against its subscriber's consent
-- when queued and again when the outbox worker sends it.
CREATE TABLE broadcasts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
  -- Markdown, rendered through the e-mail kit (functions/mail/markdown.ts).
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 50000),
  -- The message's language: its footer, reason and unsubscribe wording.
  language text NOT NULL CHECK (language IN ('en', 'tr')),
  -- Who gets it: every active subscriber, those who bought one of course_ids, or those who never bought.
  segment text NOT NULL CHECK (segment IN ('all', 'buyers', 'never-bought')),
  course_ids uuid[] NOT NULL DEFAULT '{}' CHECK (cardinality(course_ids) <= 200),
  -- Only subscribers who want mail in this language (their preferences); null: whatever they chose.
  audience_language text CHECK (audience_language IN ('en', 'tr')),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled')),
  send_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  CHECK (status <> 'scheduled' OR send_at IS NOT NULL),
  CHECK (segment <> 'buyers' OR cardinality(course_ids) > 0)
);
CREATE INDEX broadcasts_created_idx ON broadcasts (created_at DESC);
CREATE INDEX broadcasts_due_idx ON broadcasts (send_at) WHERE status IN ('scheduled', 'sending');

-- waiting: not queued yet; queued: its mail is in the outbox (mail_id); skipped: the subscriber had
-- left (or was no longer active) when its turn came, so nothing was queued.
CREATE TABLE broadcast_recipients (
  broadcast_id uuid NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
  subscriber_id uuid NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'queued', 'skipped')),
  mail_id uuid REFERENCES mail_outbox (id) ON DELETE SET NULL,
  queued_at timestamptz,
  PRIMARY KEY (broadcast_id, subscriber_id)
);
CREATE INDEX broadcast_recipients_waiting_idx ON broadcast_recipients (broadcast_id, subscriber_id) WHERE status = 'waiting';
-- The sending rate's window: how many were queued in the last minute, whatever the broadcast.
CREATE INDEX broadcast_recipients_queued_idx ON broadcast_recipients (queued_at) WHERE queued_at IS NOT NULL;

-- A marketing mail names its subscriber: the worker sends it only while that subscriber is active,
-- and marks it withdrawn otherwise (an unsubscribe arriving after it was queued is honoured).
ALTER TABLE mail_outbox ADD COLUMN subscriber_id uuid REFERENCES subscribers (id) ON DELETE SET NULL;
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_status_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_status_check CHECK (status IN ('pending', 'sent', 'withdrawn'));
CREATE INDEX mail_outbox_subscriber_idx ON mail_outbox (subscriber_id) WHERE subscriber_id IS NOT NULL;

-- The seller's audience settings (the sending rate, each automatic mail on or off, its texts per
-- language when edited): one JSON document checked by its form's schema, like the other settings rows.
CREATE TABLE audience_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Automatic mails sent, so each goes once: a review request per subscriber and course, a checkout
-- reminder per subscriber and course.
CREATE TABLE automatic_mails_sent (
  kind text NOT NULL CHECK (kind IN ('review-request', 'checkout-reminder')),
  subscriber_id uuid NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  mail_id uuid REFERENCES mail_outbox (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, subscriber_id, course_id)
);
