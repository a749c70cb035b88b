CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Catalogue: categories and courses. Money is integer minor units plus an ISO currency code.
CREATE TABLE categories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  name_en text NOT NULL CHECK (length(name_en) BETWEEN 1 AND 100),
  name_tr text NOT NULL CHECK (length(name_tr) BETWEEN 1 AND 100),
  description_en text NOT NULL DEFAULT '',
  description_tr text NOT NULL DEFAULT '',
  color text NOT NULL DEFAULT '#3B82F6' CHECK (color ~ '^#[0-9A-Fa-f]{6}$'),
  icon text NOT NULL DEFAULT 'BookOpen',
  is_active boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Case and accent folding that knows Turkish: İ/I/ı/i all become i, ş→s, ğ→g, ü→u, ö→o, ç→c.
-- lower() alone maps 'I' to 'i' and leaves 'ı' alone, so "ışık" would never find "IŞIK".
CREATE FUNCTION fold_search(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN lower(translate(value, 'İIıŞşĞğÜüÖöÇçÂâÎîÛû', 'iiissgguuooccaaiiuu'));

CREATE TABLE courses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  description text NOT NULL CHECK (length(description) BETWEEN 1 AND 5000),
  category text NOT NULL REFERENCES categories (slug) ON UPDATE CASCADE,
  difficulty_level text NOT NULL DEFAULT 'beginner' CHECK (difficulty_level IN ('beginner', 'intermediate', 'advanced')),
  language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'tr', 'es', 'fr')),
  price_minor integer NOT NULL DEFAULT 0 CHECK (price_minor >= 0),
  currency text NOT NULL DEFAULT 'USD' CHECK (currency IN ('USD', 'EUR', 'TRY')),
  duration_minutes integer NOT NULL DEFAULT 30 CHECK (duration_minutes BETWEEN 1 AND 6000),
  cover_image_url text,
  -- Storage key of the private PDF; never sent to a browser.
  pdf_path text,
  instructor_name text NOT NULL CHECK (length(instructor_name) BETWEEN 1 AND 200),
  instructor_bio text NOT NULL DEFAULT '',
  tags text[] NOT NULL DEFAULT '{}',
  is_featured boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  -- Folded copy of title, description and instructor for Turkish-aware, case-insensitive search.
  search_text text GENERATED ALWAYS AS (fold_search(title || ' ' || description || ' ' || instructor_name)) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX courses_active_language_created_idx ON courses (language, created_at DESC) WHERE is_active;
CREATE INDEX courses_category_idx ON courses (category);
CREATE INDEX courses_search_trgm_idx ON courses USING gin (search_text gin_trgm_ops);
