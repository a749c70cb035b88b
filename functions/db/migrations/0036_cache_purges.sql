-- Page purges that instances without LISTEN (behind a transaction pooler) read by polling: each row
-- names the writing transaction, so a reader knows which rows can no longer appear below its horizon.
CREATE TABLE cache_purges (
  id bigserial PRIMARY KEY,
  tag text NOT NULL,
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cache_purges_txid ON cache_purges (txid);
CREATE INDEX cache_purges_created_at ON cache_purges (created_at);
