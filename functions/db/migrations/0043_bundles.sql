-- Bundles (decision 44): a bundle is a course row of kind 'bundle', so its page, cover, price, codes
-- and checkout are a course's; bundle_items lists the courses it grants. An order of a bundle is one
-- purchase of the bundle row (one receipt line); completing it grants each listed course the buyer
-- does not own yet as a purchase of its own (its own download token, stamped downloads), pointing
-- back at the order by bundle_purchase_id; refunding the order revokes exactly those.
ALTER TABLE courses
  ADD COLUMN kind text NOT NULL DEFAULT 'course' CHECK (kind IN ('course', 'bundle')),
  -- A buyer who owns some of the courses pays less by their share (the seller may turn it off).
  ADD COLUMN bundle_reduces_owned boolean NOT NULL DEFAULT true;

CREATE TABLE bundle_items (
  bundle_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  -- A course in a bundle cannot be deleted from under it.
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE RESTRICT,
  position integer NOT NULL DEFAULT 0,
  PRIMARY KEY (bundle_id, course_id),
  CHECK (bundle_id <> course_id)
);
CREATE INDEX bundle_items_course_idx ON bundle_items (course_id);

ALTER TABLE purchases
  ADD COLUMN bundle_purchase_id uuid REFERENCES purchases (id);
CREATE INDEX purchases_bundle_purchase_idx ON purchases (bundle_purchase_id) WHERE bundle_purchase_id IS NOT NULL;
