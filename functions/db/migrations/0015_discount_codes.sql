-- Discount codes (functions/discounts/). A code is stored upper-case and matched case-insensitively.
CREATE TABLE discount_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9][A-Z0-9_-]{2,31}$'),
  kind text NOT NULL CHECK (kind IN ('percent', 'fixed')),
  percent integer CHECK (percent BETWEEN 1 AND 100),
  -- Fixed amounts per currency, in minor units: {"USD": 500, "TRY": 15000}.
  amounts jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(amounts) = 'object'),
  all_courses boolean NOT NULL DEFAULT true,
  starts_at timestamptz,
  ends_at timestamptz,
  max_redemptions integer CHECK (max_redemptions > 0),
  once_per_buyer boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  -- Orders holding the code: pending ones (released when they fail or expire) and completed ones.
  -- Raised under the row's lock only while below max_redemptions: N uses admit exactly N orders.
  redemptions integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT discount_codes_uses_within_limit CHECK (redemptions >= 0 AND (max_redemptions IS NULL OR redemptions <= max_redemptions)),
  CHECK ((kind = 'percent') = (percent IS NOT NULL)),
  CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at)
);

CREATE TABLE discount_code_courses (
  discount_code_id uuid NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  PRIMARY KEY (discount_code_id, course_id)
);

-- The price before the code, the amount taken off, and the code as typed into the order.
ALTER TABLE purchases ADD COLUMN discount_code_id uuid REFERENCES discount_codes (id) ON DELETE SET NULL;
ALTER TABLE purchases ADD COLUMN discount_code text;
ALTER TABLE purchases ADD COLUMN discount_minor integer NOT NULL DEFAULT 0 CHECK (discount_minor >= 0);
-- "Once per buyer" (copied from the code when the order takes it): one live order per buyer and code;
-- a failed or expired order lets go of it.
ALTER TABLE purchases ADD COLUMN discount_once_per_buyer boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX purchases_code_once_per_buyer_idx ON purchases (discount_code_id, user_id)
  WHERE discount_once_per_buyer AND status IN ('pending', 'completed', 'refunded', 'disputed');
