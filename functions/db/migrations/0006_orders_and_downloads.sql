-- Orders are written before payment starts; fulfilment completes them exactly once.
ALTER TABLE purchases ALTER COLUMN payment_id DROP NOT NULL;
-- The Stripe PaymentIntent, known from completion on; refunds and disputes name it.
ALTER TABLE purchases ADD COLUMN payment_intent_id text UNIQUE;
-- The permanent, unguessable download link of a purchase (e-mailed to the buyer).
ALTER TABLE purchases ADD COLUMN download_token text UNIQUE;
ALTER TABLE purchases ADD CONSTRAINT purchases_completed_has_token CHECK (status <> 'completed' OR download_token IS NOT NULL);
CREATE INDEX purchases_completed_at_idx ON purchases (completed_at DESC) WHERE status = 'completed';

-- Every payment event handled, by the provider's event id: a redelivered event changes nothing.
CREATE TABLE payment_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  purchase_id uuid REFERENCES purchases (id),
  received_at timestamptz NOT NULL DEFAULT now()
);
