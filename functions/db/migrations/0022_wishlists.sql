-- A signed-in buyer's wishlist (a guest's stays in the browser and merges in at sign-in).
CREATE TABLE wishlist_items (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, course_id)
);
