-- Free previews (issue 40): the pages of a course's file anyone may download before buying, from
-- the first to the last (counted from 1). Both empty: no preview. The preview file itself is made
-- from the course file and kept in storage per file version (functions/courses/course-previews.ts).
ALTER TABLE courses
  ADD COLUMN preview_first_page integer,
  ADD COLUMN preview_last_page integer,
  ADD CONSTRAINT courses_preview_pages CHECK (
    (preview_first_page IS NULL AND preview_last_page IS NULL)
    OR (preview_first_page BETWEEN 1 AND preview_last_page AND preview_last_page <= 10000)
  );
