-- A bundle's title and description per interface language, and its price per currency (issue 40,
-- decision 44's addendum). One row each, as category_texts: a new language or currency is new rows,
-- not a migration. The bundle's courses row keeps its own language's text and its own currency's
-- price (the same values as those rows): what admin lists, search, Sales and exports read, and the
-- text a page in a language the bundle has none for shows, marked as being in that language.
CREATE TABLE bundle_texts (
  bundle_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  language text NOT NULL CHECK (language ~ '^[a-z]{2,3}$'),
  title text NOT NULL CHECK (length(title) >= 1),
  description text NOT NULL,
  PRIMARY KEY (bundle_id, language)
);

CREATE TABLE bundle_prices (
  bundle_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  currency text NOT NULL CHECK (currency IN ('USD', 'EUR', 'TRY')),
  price_minor integer NOT NULL CHECK (price_minor >= 0),
  PRIMARY KEY (bundle_id, currency)
);

-- Every bundle so far was written in one language and priced in one currency: those become its rows.
INSERT INTO bundle_texts (bundle_id, language, title, description)
SELECT id, language, title, description FROM courses WHERE kind = 'bundle';

INSERT INTO bundle_prices (bundle_id, currency, price_minor)
SELECT id, currency, price_minor FROM courses WHERE kind = 'bundle';
