-- The VAT given back on a paid order whose buyer's VAT number VIES could not check at checkout and
-- confirmed later (Admin → Taxes): the sale was a reverse charge, so its tax goes back through the
-- order's payment provider while the order keeps its access. One row per order (the key makes a second
-- refund impossible); its credit note number comes from the credit notes' gap-free counter.
CREATE TABLE vat_refunds (
  purchase_id uuid PRIMARY KEY REFERENCES purchases (id) ON DELETE CASCADE,
  amount_minor integer NOT NULL CHECK (amount_minor > 0),
  currency text NOT NULL,
  -- The VAT number's member state: where the reverse-charged sale now belongs in the report.
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  credit_note_number integer NOT NULL UNIQUE CHECK (credit_note_number > 0),
  refunded_at timestamptz NOT NULL DEFAULT now()
);
