-- Messages sent from the contact page, kept so none is lost even when mail is down.
CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 2 AND 200),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  subject text NOT NULL CHECK (length(subject) BETWEEN 5 AND 300),
  message text NOT NULL CHECK (length(message) BETWEEN 10 AND 10000),
  language text NOT NULL CHECK (language IN ('en', 'tr')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_messages_created_idx ON contact_messages (created_at DESC);
