-- Readers who asked for the shop's news (issue 39): one row per mailbox, active only once they
-- confirmed by e-mail (double opt-in). Their consent is proven by subscriber_consents, never by
-- this row alone: each grant and each withdrawal is kept as it happened.
CREATE TABLE subscribers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- As typed, for sending; mailbox_key (functions/mail/mailbox-key.ts) makes every spelling one subscriber.
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  mailbox_key text NOT NULL UNIQUE CHECK (length(mailbox_key) <= 400),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'unsubscribed')),
  -- What they want to hear about: mail in these languages, on these topics (preferences page).
  languages text[] NOT NULL CHECK (cardinality(languages) BETWEEN 1 AND 10),
  topics text[] NOT NULL CHECK (cardinality(topics) BETWEEN 1 AND 10),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz,
  CHECK (status <> 'active' OR confirmed_at IS NOT NULL),
  CHECK (status <> 'unsubscribed' OR unsubscribed_at IS NOT NULL)
);
CREATE INDEX subscribers_status_idx ON subscribers (status, created_at DESC);

-- The consent record (GDPR art. 7(1), KVKK, Law 6563): what was agreed to (the wording's key,
-- version and text as shown), when, from which form and page, in which language, from which client
-- address, and when the mailbox confirmed it. A grant counts only once confirmed; a withdrawal
-- counts at once. Rows are never updated except to set confirmed_at, never deleted but with their subscriber.
CREATE TABLE subscriber_consents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscriber_id uuid NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  action text NOT NULL CHECK (action IN ('grant', 'withdraw')),
  wording_key text NOT NULL CHECK (length(wording_key) <= 100),
  wording_version text NOT NULL CHECK (length(wording_version) <= 100),
  wording_text text NOT NULL CHECK (length(wording_text) <= 2000),
  source text NOT NULL CHECK (source IN ('footer', 'blog', 'course', 'subscribe-page', 'checkout', 'preferences', 'one-click')),
  page text NOT NULL CHECK (length(page) <= 500),
  language text NOT NULL CHECK (length(language) <= 10),
  client_ip text NOT NULL CHECK (length(client_ip) <= 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  CHECK (action = 'grant' OR confirmed_at IS NOT NULL)
);
CREATE INDEX subscriber_consents_subscriber_idx ON subscriber_consents (subscriber_id, created_at);
CREATE INDEX subscriber_consents_confirmed_idx ON subscriber_consents (confirmed_at) WHERE confirmed_at IS NOT NULL;

-- The double opt-in link: its token is kept only as a hash, works once, and expires.
CREATE TABLE subscriber_confirmations (
  token_hash text PRIMARY KEY CHECK (length(token_hash) <= 100),
  consent_id uuid NOT NULL UNIQUE REFERENCES subscriber_consents (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
