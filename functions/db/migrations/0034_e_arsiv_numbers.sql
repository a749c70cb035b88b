-- A seller in Türkiye issues an e-Arşiv invoice for each sale on the GİB portal or through an
-- integrator, then records its number here (Admin → Taxes); receipts then show it. 16 characters:
-- a three-character prefix, the year and a nine-digit sequence (e.g. ABC2026000000001).
ALTER TABLE purchases ADD COLUMN e_arsiv_number text CHECK (e_arsiv_number ~ '^[A-Z0-9]{3}[0-9]{13}$');
CREATE UNIQUE INDEX purchases_e_arsiv_number_idx ON purchases (e_arsiv_number) WHERE e_arsiv_number IS NOT NULL;
