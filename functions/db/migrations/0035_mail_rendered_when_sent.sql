-- A mail whose rendering can wait (the course materials after a payment) is queued with what its
-- template needs, and the outbox worker renders it as it sends it (functions/mail/template.ts
-- queueMailToRender): the payment's answer does not wait for React and the plain-text conversion.
-- Until then html and text are empty; the worker writes them before sending, and clears this.
ALTER TABLE mail_outbox ADD COLUMN render_with jsonb CHECK (jsonb_typeof(render_with) = 'object');
