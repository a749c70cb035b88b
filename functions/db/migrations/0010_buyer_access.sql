-- A purchase made by e-mail alone (no session) belongs to whoever proves they own that address: it
-- opens in an account's library only once the account's e-mail is verified, so registering someone
-- else's address first gains nothing.
ALTER TABLE purchases ADD COLUMN guest boolean NOT NULL DEFAULT false;

-- A mail with a "sign in" button gets its one-use, 15-minute link when it is sent, not when it is
-- queued: a mail delayed by an SMTP outage still carries a link that works.
ALTER TABLE mail_outbox ADD COLUMN sign_in_email text CHECK (length(sign_in_email) BETWEEN 3 AND 320);

