-- Versions of a course's PDF (docs/decisions/0017-stamped-pdfs-and-course-versions.md). The course row
-- keeps pointing at its one current file (pdf_path); replacing it with different bytes raises
-- pdf_version and records when. A replaced file is deleted once the new one is committed, so there is
-- no older version to keep: the number and the date are what buyers' copies and notices refer to.
ALTER TABLE courses ADD COLUMN pdf_version integer NOT NULL DEFAULT 1 CHECK (pdf_version >= 1);
-- When the current file replaced an earlier one; NULL while the first file is still the current one.
ALTER TABLE courses ADD COLUMN pdf_updated_at timestamptz;
-- The current file's SHA-256 (hex): uploading the same bytes again is not a new version.
ALTER TABLE courses ADD COLUMN pdf_sha256 text CHECK (pdf_sha256 ~ '^[0-9a-f]{64}$');
-- Whether each buyer's download carries their name, e-mail and order on every page (the seller's choice).
ALTER TABLE courses ADD COLUMN stamp_pdfs boolean NOT NULL DEFAULT true;

-- One "new version" notice per account, course and version, whatever the number of saves: the
-- admin's "notify buyers" queues the mail in the same transaction that inserts this row.
CREATE TABLE course_update_notices (
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  pdf_version integer NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- False when the account had turned these mails off: considered, not mailed.
  mailed boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (course_id, pdf_version, user_id)
);
