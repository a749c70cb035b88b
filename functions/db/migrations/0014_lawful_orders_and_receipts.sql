-- What the buyer agreed to before paying, as they saw it: the wording of each box ticked, the
-- version of the Terms, the time and the client address; in Turkish also the pre-information form
-- and the distance sales contract as filled for this order (they travel with the confirmation mail).
ALTER TABLE purchases ADD COLUMN consent jsonb CHECK (consent IS NULL OR jsonb_typeof(consent) = 'object');
ALTER TABLE purchases ADD COLUMN contracts jsonb CHECK (contracts IS NULL OR jsonb_typeof(contracts) = 'object');

-- Receipts and credit notes are numbered from a counter row locked in the transaction that completes
-- or refunds the order: gap-free by construction (a rolled-back transaction returns its number). The
-- row is made by the first number (a restore needs the tables empty).
CREATE TABLE document_counters (
  kind text PRIMARY KEY CHECK (kind IN ('receipt', 'credit_note')),
  last_number integer NOT NULL CHECK (last_number > 0)
);

ALTER TABLE purchases ADD COLUMN receipt_number integer UNIQUE CHECK (receipt_number > 0);
ALTER TABLE purchases ADD COLUMN credit_note_number integer UNIQUE CHECK (credit_note_number > 0);
ALTER TABLE purchases ADD COLUMN refunded_at timestamptz;
-- The seller as they were named when the receipt was issued: later changes to the settings do not
-- rewrite a document already given to a buyer.
ALTER TABLE purchases ADD COLUMN seller jsonb CHECK (seller IS NULL OR jsonb_typeof(seller) = 'object');
ALTER TABLE purchases ADD CONSTRAINT purchases_credit_note_needs_receipt CHECK (credit_note_number IS NULL OR receipt_number IS NOT NULL);
