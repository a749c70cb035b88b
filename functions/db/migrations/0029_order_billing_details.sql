-- The buyer's billing details, kept on the order when its provider asked for them (iyzico: name,
-- surname, city, country, address, an optional identity number). Never copied to the account.
ALTER TABLE purchases ADD COLUMN billing jsonb CHECK (billing IS NULL OR jsonb_typeof(billing) = 'object');
