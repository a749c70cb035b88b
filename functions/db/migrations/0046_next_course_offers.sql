-- The next course after a purchase (issue 40 point 5, decision 53).

-- What the seller chose for a course's buyers: the course offered next (NULL: the one most often
-- bought by this course's buyers) and an optional one-time discount that ends a number of hours
-- after the purchase. A course without a row offers the most often bought one, without a discount.
CREATE TABLE course_offers (
  course_id uuid PRIMARY KEY REFERENCES courses (id) ON DELETE CASCADE,
  offered_course_id uuid REFERENCES courses (id) ON DELETE SET NULL,
  discount_percent integer CHECK (discount_percent BETWEEN 1 AND 90),
  discount_hours integer CHECK (discount_hours BETWEEN 1 AND 720),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (offered_course_id IS DISTINCT FROM course_id),
  CHECK ((discount_percent IS NULL) = (discount_hours IS NULL))
);

-- Every price a course has had and since when, for "the lowest price of the previous 30 days" a
-- time-limited discount must show as its price before (EU Directive 98/6/EC art. 6a). Written by a
-- trigger, so no writer (the admin's save, the seed, an import, psql) can change a price unrecorded.
CREATE TABLE course_price_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  price_minor integer NOT NULL CHECK (price_minor >= 0),
  currency text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX course_price_changes_course_idx ON course_price_changes (course_id, changed_at);

-- A restore (functions/db/backup.ts) brings the history back as it was: it sets shop.restoring.
CREATE FUNCTION record_course_price() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('shop.restoring', true) = 'on' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.price_minor IS DISTINCT FROM OLD.price_minor OR NEW.currency IS DISTINCT FROM OLD.currency THEN
    INSERT INTO course_price_changes (course_id, price_minor, currency) VALUES (NEW.id, NEW.price_minor, NEW.currency);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER courses_record_price AFTER INSERT OR UPDATE OF price_minor, currency ON courses
  FOR EACH ROW EXECUTE FUNCTION record_course_price();

-- Prices before this migration are unknown: each course's history starts with its price now.
INSERT INTO course_price_changes (course_id, price_minor, currency) SELECT id, price_minor, currency FROM courses;

-- A one-time discount is a discount code of its own (functions/discounts/): one use, for one course,
-- until it ends, made for one order and usable only from its buyer's mailbox while that order stands.
-- Orders point at their code too: the key is checked at commit, so a restore may insert either first.
ALTER TABLE discount_codes
  ADD COLUMN offer_purchase_id uuid UNIQUE REFERENCES purchases (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
  ADD COLUMN buyer_key text CHECK (length(buyer_key) <= 400),
  ADD CONSTRAINT discount_codes_offer_has_buyer CHECK ((offer_purchase_id IS NULL) = (buyer_key IS NULL));

