-- Buyers brought over from Gumroad, Payhip or Lemon Squeezy (issue 39): one row per uploaded export.
-- The file is kept between its dry run and its import (the seller maps products to courses in
-- between, without re-uploading) and dropped once imported; an upload nobody imported is dropped at
-- the next upload after a day. What it granted is in purchases (provider 'import', no receipt, no
-- money), keyed by platform and the platform's order id, so importing it again grants nothing twice.
CREATE TABLE buyer_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  platform text NOT NULL CHECK (platform IN ('gumroad', 'payhip', 'lemon-squeezy')),
  file_name text NOT NULL CHECK (length(file_name) <= 300),
  -- The export as uploaded, until it is imported.
  file bytea,
  -- The dry run as the admin saw it (rows, products, buyers, problems), and what the import did.
  dry_run jsonb NOT NULL,
  result jsonb,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  imported_at timestamptz,
  CHECK (imported_at IS NULL OR (file IS NULL AND result IS NOT NULL))
);
CREATE INDEX buyer_imports_created_idx ON buyer_imports (created_at DESC);

-- An imported consent is recorded as it was carried by the export, its source the import.
ALTER TABLE subscriber_consents DROP CONSTRAINT subscriber_consents_source_check;
ALTER TABLE subscriber_consents ADD CONSTRAINT subscriber_consents_source_check
  CHECK (source IN ('footer', 'blog', 'course', 'subscribe-page', 'checkout', 'preferences', 'one-click', 'import'));
