-- The funnel (issue 40): course page views per course, week and source, counted by the server as
-- aggregate numbers (no cookie, no visitor, no address). Each instance adds what it counted since its
-- last flush (ON CONFLICT … views + EXCLUDED.views), so several instances never overwrite each other.
-- A source is the landing URL's utm_source / utm_medium / utm_campaign and the referring site's host,
-- '' where there was none.
CREATE TABLE funnel_views (
  course_id uuid NOT NULL REFERENCES courses (id) ON DELETE CASCADE,
  -- The Monday (UTC) the week starts on.
  week date NOT NULL CHECK (extract(isodow FROM week) = 1),
  utm_source text NOT NULL DEFAULT '' CHECK (length(utm_source) <= 100),
  utm_medium text NOT NULL DEFAULT '' CHECK (length(utm_medium) <= 100),
  utm_campaign text NOT NULL DEFAULT '' CHECK (length(utm_campaign) <= 100),
  referrer_host text NOT NULL DEFAULT '' CHECK (length(referrer_host) <= 253),
  views bigint NOT NULL CHECK (views >= 0),
  PRIMARY KEY (course_id, week, utm_source, utm_medium, utm_campaign, referrer_host)
);
CREATE INDEX funnel_views_week_idx ON funnel_views (week);

-- Where a checkout came from, when it came tagged: the source its course page was reached by, carried
-- to the checkout in the page's links. Checkouts started and paid are counted from purchases joined
-- to this row by the checkout's payment id (a checkout with no row came with no source).
CREATE TABLE funnel_checkout_sources (
  payment_id text PRIMARY KEY CHECK (length(payment_id) <= 300),
  utm_source text NOT NULL DEFAULT '' CHECK (length(utm_source) <= 100),
  utm_medium text NOT NULL DEFAULT '' CHECK (length(utm_medium) <= 100),
  utm_campaign text NOT NULL DEFAULT '' CHECK (length(utm_campaign) <= 100),
  referrer_host text NOT NULL DEFAULT '' CHECK (length(referrer_host) <= 253),
  created_at timestamptz NOT NULL DEFAULT now()
);
