-- Pay what you want: a course with a minimum lets the buyer name the price at checkout, at least the
-- minimum (0 allows a free enrolment); its price_minor is then the suggested price shown in the field.
-- NULL keeps the fixed price. The order stores what the buyer named as any other amount.
ALTER TABLE courses
  ADD COLUMN minimum_price_minor integer CHECK (minimum_price_minor >= 0 AND minimum_price_minor <= price_minor);
