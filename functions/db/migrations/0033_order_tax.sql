-- The tax line of an order, computed by functions/taxes/ and stored by the order's room: why it
-- applies (scheme), whose tax it is, the rate in hundredths of a percent (1900 = 19 %, 550 = 5.5 %),
-- and what it was charged on: net + tax = amount_minor, the amount the provider was asked for. With
-- it, the evidence of where the buyer is (billing and IP country, the VAT number and VIES's answer,
-- a confirmed country, the rate table's date), kept with the order. Orders before this have none.
ALTER TABLE purchases
  ADD COLUMN tax_scheme text CHECK (tax_scheme IN ('flat', 'domestic', 'eu_b2c', 'eu_home', 'reverse_charge', 'registered', 'none')),
  ADD COLUMN tax_country text CHECK (tax_country ~ '^([A-Z]{2})?$'),
  ADD COLUMN tax_rate_hundredths integer CHECK (tax_rate_hundredths BETWEEN 0 AND 10000),
  ADD COLUMN net_minor integer CHECK (net_minor >= 0),
  ADD COLUMN tax_minor integer CHECK (tax_minor >= 0),
  ADD COLUMN tax_evidence jsonb CHECK (tax_evidence IS NULL OR jsonb_typeof(tax_evidence) = 'object'),
  ADD CONSTRAINT purchases_tax_line_whole CHECK (
    (tax_scheme IS NULL AND tax_country IS NULL AND tax_rate_hundredths IS NULL AND net_minor IS NULL AND tax_minor IS NULL)
    OR (tax_scheme IS NOT NULL AND tax_country IS NOT NULL AND tax_rate_hundredths IS NOT NULL
        AND net_minor IS NOT NULL AND tax_minor IS NOT NULL AND net_minor + tax_minor = amount_minor)
  );
