-- Payments become provider-neutral: the payment a refund or dispute names is the provider's own
-- reference (a Stripe PaymentIntent, an iyzico paymentId), and the provider's name is plain data, so
-- adding a provider edits no constraint. functions/payments/registry.ts lists the providers.
ALTER TABLE purchases RENAME COLUMN payment_intent_id TO payment_reference;
ALTER TABLE purchases RENAME CONSTRAINT purchases_payment_intent_id_key TO purchases_payment_reference_key;
ALTER TABLE purchases DROP CONSTRAINT purchases_provider_check;
-- What the buyer paid in the end, beside the list price (amount_minor): a provider may add
-- instalment interest (iyzico's taksit). The receipt shows both when they differ.
ALTER TABLE purchases ADD COLUMN paid_minor integer CHECK (paid_minor >= 0);
