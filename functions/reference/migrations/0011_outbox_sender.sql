-- The development outbox names the send call a code went through (spec §7 "Other senders … for
-- special expos", docs/upstream.md "Senders of special expos"), so an operator and the tests see
-- which sender an expo chose. Rows written before this migration have none.
ALTER TABLE outbox ADD COLUMN sender TEXT;
