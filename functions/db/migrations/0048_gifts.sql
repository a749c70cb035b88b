-- Gifts (decision 52). A gift's order is a purchase in nobody's library: user_id NULL and not a
-- guest purchase (so no account adopts it), with the buyer's address for the receipt and refund
-- mails. The gift row names its buyer (for their list of gifts) and its recipient, whose course is
-- granted on the chosen day as a guest purchase of their own (grant_id), opened by a sign-in link.
CREATE TABLE gifts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL UNIQUE REFERENCES purchases (id) ON DELETE CASCADE,
  buyer_id uuid REFERENCES users (id) ON DELETE SET NULL,
  -- Bought signed out: listed in the buyer's dashboard once their address is proved.
  buyer_guest boolean NOT NULL,
  recipient_email text NOT NULL,
  message text NOT NULL DEFAULT '',
  -- The gift mail's language, chosen by the buyer (their checkout's language).
  language text NOT NULL,
  -- A calendar day in UTC: delivered by the gift-delivery job once that day has begun.
  deliver_on date NOT NULL,
  delivered_at timestamptz,
  last_sent_at timestamptz,
  grant_id uuid REFERENCES purchases (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX gifts_due_idx ON gifts (deliver_on) WHERE delivered_at IS NULL;
CREATE INDEX gifts_buyer_idx ON gifts (buyer_id, created_at DESC);
