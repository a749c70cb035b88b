-- Limits on whatever sends mail or costs money, per client address and per target e-mail
-- (functions/abuse/limits.ts). A fixed window per (rule, key): shared by every instance.
CREATE TABLE usage_limits (
  rule text NOT NULL,
  key text NOT NULL CHECK (length(key) <= 400),
  window_start timestamptz NOT NULL,
  hits integer NOT NULL CHECK (hits > 0),
  PRIMARY KEY (rule, key)
);
CREATE INDEX usage_limits_window_idx ON usage_limits (window_start);

-- Failed sign-ins are throttled per (account, client address) and per client address, never per
-- account alone: a stranger's failures must not keep the owner out.
-- An attempt is written before the password is checked (and removed unless it fails), so attempts
-- racing each other see each other.
ALTER TABLE sign_in_failures ADD COLUMN client_ip text NOT NULL DEFAULT '' CHECK (length(client_ip) <= 100);
ALTER TABLE sign_in_failures ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY;
DROP INDEX sign_in_failures_email_idx;
CREATE INDEX sign_in_failures_account_idx ON sign_in_failures (email, client_ip, created_at DESC);
CREATE INDEX sign_in_failures_client_idx ON sign_in_failures (client_ip, created_at DESC);
