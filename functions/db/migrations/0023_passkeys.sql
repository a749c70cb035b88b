-- Passkeys (WebAuthn) over better-auth's sessions (functions/auth/passkeys.ts, decision 0021).

-- A passkey an account registered: the authenticator's credential and public key (COSE), the
-- signature counter it last reported, and the name its owner gave it in Settings.
CREATE TABLE passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  credential_id text NOT NULL UNIQUE CHECK (length(credential_id) <= 1400),
  public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text[] NOT NULL DEFAULT '{}',
  device_type text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_user_id_idx ON passkeys (user_id);

-- A ceremony's challenge, kept by the server: used once (deleted as it is checked), for a few
-- minutes. A registration's names the account and session that asked for it.
CREATE TABLE webauthn_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  purpose text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  challenge text NOT NULL CHECK (length(challenge) <= 200),
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);
CREATE INDEX webauthn_challenges_expires_at_idx ON webauthn_challenges (expires_at);
