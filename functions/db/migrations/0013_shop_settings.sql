-- The shop's identity (name, legal entity, address, contacts, tax), one validated row read by
-- layouts, mails, legal pages and receipts (functions/shop/settings.ts). Absent until the seller
-- saves it: the admin overview then lists what is missing.
CREATE TABLE shop_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The seller's own wording of a legal text, per language. Absent: the shipped template
-- (content/legal/<language>/<page>.md), filled from the settings either way.
CREATE TABLE legal_texts (
  language text NOT NULL CHECK (language IN ('en', 'tr')),
  page text NOT NULL CHECK (page IN ('terms', 'privacy', 'refund', 'pre-information', 'distance-contract')),
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 40000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (language, page)
);
