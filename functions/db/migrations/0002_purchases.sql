-- Purchases: one row per order. Only `completed` grants access; refunds and disputes revoke it.
CREATE TABLE purchases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id text,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE RESTRICT,
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 320),
  full_name text NOT NULL DEFAULT '',
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'tr')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'completed', 'failed', 'expired', 'refunded', 'disputed')),
  provider text NOT NULL CHECK (provider IN ('free', 'stripe', 'demo')),
  -- Stripe Checkout Session id, or a generated `free_…` / `demo_…` reference.
  payment_id text NOT NULL UNIQUE,
  amount_minor integer NOT NULL CHECK (amount_minor >= 0),
  currency text NOT NULL CHECK (currency IN ('USD', 'EUR', 'TRY')),
  download_count integer NOT NULL DEFAULT 0 CHECK (download_count >= 0),
  last_download_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX purchases_course_completed_idx ON purchases (course_id) WHERE status = 'completed';
CREATE INDEX purchases_user_idx ON purchases (user_id, created_at DESC);
-- A buyer owns a course once.
CREATE UNIQUE INDEX purchases_one_completed_per_buyer_idx ON purchases (user_id, course_id) WHERE status = 'completed';
