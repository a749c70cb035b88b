-- Which payment provider takes each currency (Admin → Settings → Payments), e.g. TRY → iyzico,
-- USD and EUR → Stripe. One validated row read through functions/shop/payment-choices.ts; absent
-- until the seller saves it (the first configured provider takes every currency). Keys stay in the
-- environment: this row names providers only.
CREATE TABLE payment_choices (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  choices jsonb NOT NULL CHECK (jsonb_typeof(choices) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
