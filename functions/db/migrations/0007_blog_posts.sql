-- Blog posts edited in the admin; they appear beside the Markdown posts of content/blog/.
CREATE TABLE blog_posts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 120),
  language text NOT NULL CHECK (language IN ('en', 'tr')),
  -- Posts sharing a key are translations of each other (hreflang and the language link).
  translation_key text,
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  excerpt text NOT NULL CHECK (length(excerpt) BETWEEN 1 AND 500),
  content text NOT NULL CHECK (length(content) BETWEEN 1 AND 200000),
  author_name text NOT NULL CHECK (length(author_name) BETWEEN 1 AND 200),
  cover_image_url text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  is_published boolean NOT NULL DEFAULT false,
  seo_title text,
  meta_description text CHECK (length(meta_description) <= 160),
  tldr text,
  cta_text text,
  cta_link text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (language, slug)
);
CREATE INDEX blog_posts_published_idx ON blog_posts (language, created_at DESC) WHERE is_published;
