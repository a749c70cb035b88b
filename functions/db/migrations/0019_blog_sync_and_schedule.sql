-- One source of truth for the blog: content/blog files are synced into blog_posts at start-up
-- (functions/blog/sync.ts), posts get a publish date, and a scheduler announces scheduled posts.

-- When the post went (or goes) public. NULL: never published. A future time with is_published: scheduled.
ALTER TABLE blog_posts ADD COLUMN published_at timestamptz;
UPDATE blog_posts SET published_at = created_at WHERE is_published;

-- false only while a file-born post holds its file's text untouched: the sync may then update it.
-- Every post written before this migration (those shadowing a file included) counts as edited here.
ALTER TABLE blog_posts ADD COLUMN edited_here boolean NOT NULL DEFAULT true;
-- The content hash of the file version this post last took (NULL: never took one).
ALTER TABLE blog_posts ADD COLUMN synced_hash text;
-- The file with this language and slug as the last sync read it (NULL: no such file), so any
-- instance can show "the file differs" and hand its version over without reading the disk.
ALTER TABLE blog_posts ADD COLUMN file_hash text;
ALTER TABLE blog_posts ADD COLUMN file_version jsonb;

DROP INDEX blog_posts_published_idx;
CREATE INDEX blog_posts_published_idx ON blog_posts (language, published_at DESC) WHERE is_published;

-- A file-born post deleted in the admin: the sync never brings it back.
CREATE TABLE blog_file_tombstones (
  language text NOT NULL CHECK (language IN ('en', 'tr')),
  slug text NOT NULL,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (language, slug)
);

-- The scheduler's clock: one row (written by the first tick), locked by the instance that announces
-- the posts whose time came since the last tick, so several instances announce each one once.
CREATE TABLE blog_schedule_clock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  checked_until timestamptz NOT NULL DEFAULT now()
);
