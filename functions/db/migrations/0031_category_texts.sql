-- A category's name and description per language, one row each (as legal_texts), instead of
-- name_en/name_tr/description_en/description_tr columns: a new interface language is new rows, not
-- a migration. Which languages exist is src/i18n/languages.ts's business, so the language is only
-- checked for its shape here.
CREATE TABLE category_texts (
  category_id uuid NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  language text NOT NULL CHECK (language ~ '^[a-z]{2,3}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  description text NOT NULL DEFAULT '',
  PRIMARY KEY (category_id, language)
);

INSERT INTO category_texts (category_id, language, name, description)
SELECT id, 'en', name_en, description_en FROM categories
UNION ALL
SELECT id, 'tr', name_tr, description_tr FROM categories;

ALTER TABLE categories
  DROP COLUMN name_en,
  DROP COLUMN name_tr,
  DROP COLUMN description_en,
  DROP COLUMN description_tr;
