-- Reviews (functions/reviews/): only a buyer whose purchase of the course is completed can write one,
-- one per buyer and course. A review counts (average, lists) while its purchase is still completed:
-- a refund or dispute takes it out without deleting it.
CREATE TABLE reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purchase_id uuid NOT NULL REFERENCES purchases (id) ON DELETE CASCADE,
  rating smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
  body text NOT NULL DEFAULT '' CHECK (length(body) <= 2000),
  -- Hidden by an admin: kept for the buyer to see and edit, out of every public list and average.
  hidden boolean NOT NULL DEFAULT false,
  reply text CHECK (length(reply) BETWEEN 1 AND 2000),
  replied_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, course_id),
  CHECK ((reply IS NULL) = (replied_at IS NULL))
);
CREATE INDEX reviews_course_idx ON reviews (course_id, created_at DESC) WHERE NOT hidden;
CREATE INDEX reviews_purchase_idx ON reviews (purchase_id);
