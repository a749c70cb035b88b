-- Discount codes held by unpaid orders (functions/discounts/discounts.ts, issue 33).

-- The buyer's mailbox however the address is spelt (functions/mail/mailbox-key.ts: lower case, no
-- +tag, no dots at Gmail): "once per buyer" and the holds per buyer compare this, so `buyer+again@`
-- is the same buyer. Existing orders get it from their e-mail by the same rule.
ALTER TABLE purchases ADD COLUMN buyer_key text CHECK (length(buyer_key) <= 400);
UPDATE purchases SET buyer_key = CASE
  WHEN split_part(lower(trim(email)), '@', 2) IN ('gmail.com', 'googlemail.com')
    THEN replace(split_part(split_part(lower(trim(email)), '@', 1), '+', 1), '.', '') || '@gmail.com'
  ELSE split_part(split_part(lower(trim(email)), '@', 1), '+', 1) || '@' || split_part(lower(trim(email)), '@', 2)
END;

-- An unpaid order holds a use of its code only while its payment page is open: until the page's
-- expiry, then the next checkout of the code gives the use back (no webhook needed). NULL: holds none
-- (no code, completed, closed, or its hold was given back). The client address that asked for the
-- order, to cap how many uses one client can hold at once.
ALTER TABLE purchases ADD COLUMN discount_held_until timestamptz;
ALTER TABLE purchases ADD COLUMN discount_hold_client text CHECK (length(discount_hold_client) <= 100);
UPDATE purchases SET discount_held_until = created_at + interval '30 minutes'
  WHERE status = 'pending' AND discount_code_id IS NOT NULL;

CREATE INDEX purchases_code_buyer_idx ON purchases (discount_code_id, buyer_key) WHERE discount_code_id IS NOT NULL;
CREATE INDEX purchases_code_holds_idx ON purchases (discount_code_id, discount_held_until)
  WHERE status = 'pending' AND discount_held_until IS NOT NULL;
