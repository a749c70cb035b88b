-- What the mail worker needs to send a message as it was written: the sender's display name (the
-- shop's, in the mail's language), where replies go, and the unsubscribe address of a mail that is
-- not strictly transactional (RFC 8058 one-click).
ALTER TABLE mail_outbox ADD COLUMN from_name text;
ALTER TABLE mail_outbox ADD COLUMN reply_to text CHECK (length(reply_to) BETWEEN 3 AND 320);
ALTER TABLE mail_outbox ADD COLUMN list_unsubscribe text CHECK (list_unsubscribe LIKE 'http%');

-- Course update notices are the one kind of mail a buyer may turn off; every other mail is an answer
-- to something they did.
ALTER TABLE users ADD COLUMN course_update_emails boolean NOT NULL DEFAULT true;
