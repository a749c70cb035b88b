-- What a post's cover image shows, for screen readers ("decorative" marks decoration only). Empty
-- only for posts written before the field: they keep a description made from their title.
ALTER TABLE blog_posts ADD COLUMN cover_alt text NOT NULL DEFAULT '' CHECK (length(cover_alt) <= 300);
