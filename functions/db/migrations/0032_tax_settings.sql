-- The seller's tax settings (Admin → Settings → Taxes): home country, VAT number, tax office, OSS
-- registration, registrations elsewhere, price display mode, rate overrides and the courses sold at
-- the reduced e-book rate. One validated row read through functions/taxes/settings.ts; absent until
-- the seller saves it (the shop then keeps its single included rate from the shop settings).
CREATE TABLE tax_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
