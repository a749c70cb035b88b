-- The ECB's euro foreign exchange reference rates the seller imports (ECB's CSV) or enters (Admin →
-- Taxes): how many units of a currency one euro was worth on a day. The tax report converts a quarter's
-- lines to the seller's reporting currency with the rate of its last day (or of the ECB's next
-- publication after it); a rate nobody recorded is said to be missing, never guessed.
CREATE TABLE reference_rates (
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$' AND currency <> 'EUR'),
  day date NOT NULL,
  per_euro numeric(16, 6) NOT NULL CHECK (per_euro > 0),
  source text NOT NULL CHECK (source IN ('entered', 'ecb_csv')),
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (currency, day)
);
