-- An admin asked the payment provider for a refund; access ends when the provider confirms it
-- (Stripe's charge.refunded webhook), so the request and the refund are two moments.
ALTER TABLE purchases ADD COLUMN refund_requested_at timestamptz;

-- Errors (and other log entries) reported by browsers through the public /api/client-errors.
-- Rate-limited per client address; every column is bounded so one report stays small.
CREATE TABLE client_logs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  level text NOT NULL CHECK (level IN ('error', 'warn', 'info', 'debug')),
  message text NOT NULL CHECK (length(message) BETWEEN 1 AND 2000),
  data jsonb,
  stack text CHECK (length(stack) <= 8000),
  url text CHECK (length(url) <= 2000),
  user_agent text CHECK (length(user_agent) <= 500),
  -- The signed-in user as the server saw the session, never an id the browser claims.
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  client_address text NOT NULL,
  reported_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX client_logs_created_idx ON client_logs (created_at DESC);
CREATE INDEX client_logs_address_idx ON client_logs (client_address, created_at DESC);
