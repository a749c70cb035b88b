-- Prices shown in the shopper's currency: the seller's reference exchange rates (one per currency
-- against a base, with the day they are from), each language's default display currency and the
-- home page's "free or up to" limit per currency. One validated row read through
-- functions/shop/currencies.ts; absent until the seller saves it (built-in values are used, and the
-- admin overview warns about their age). Charges never read it: a course is paid in its own currency.
CREATE TABLE currency_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
