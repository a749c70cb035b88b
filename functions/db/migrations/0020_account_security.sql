-- Account security (functions/auth/second-factor.ts, functions/account/sessions.ts, decision 0019).

-- When this session last proved a second factor (an authenticator code, a backup code, a passkey).
-- The admin area answers only sessions that did, whatever the way they signed in.
ALTER TABLE sessions ADD COLUMN second_factor_at timestamptz;

-- better-auth's two-factor plugin: the authenticator secret and the backup codes, both encrypted
-- with BETTER_AUTH_SECRET; `verified` once the first code confirmed the enrolment.
ALTER TABLE users ADD COLUMN two_factor_enabled boolean NOT NULL DEFAULT false;
CREATE TABLE two_factors (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  backup_codes text NOT NULL,
  verified boolean NOT NULL DEFAULT true,
  failed_verification_count integer NOT NULL DEFAULT 0,
  locked_until timestamptz
);

-- An authenticator code works once: kept for as long as it could still be accepted, so a code seen
-- over a shoulder or replayed from a log is refused. Reserved before the check, so two requests
-- racing with one code cannot both pass.
CREATE TABLE used_totp_codes (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code text NOT NULL CHECK (length(code) <= 20),
  used_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, code)
);
CREATE INDEX used_totp_codes_used_at_idx ON used_totp_codes (used_at);

-- The devices (browser and system, never the address) an account has signed in from: a sign-in
-- from one not seen before sends a security mail.
CREATE TABLE known_devices (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device text NOT NULL CHECK (length(device) <= 200),
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, device)
);
