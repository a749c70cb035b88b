-- A broadcast is about one of the topics a subscriber chooses on their preferences page (courses or
-- articles): only subscribers who kept that topic receive it. Broadcasts written before were news of
-- courses; a new one always names its topic (no default).
ALTER TABLE broadcasts ADD COLUMN topic text NOT NULL DEFAULT 'courses' CHECK (topic IN ('courses', 'articles'));
ALTER TABLE broadcasts ALTER COLUMN topic DROP DEFAULT;
