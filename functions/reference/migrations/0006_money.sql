-- Money (issue 19 items 10-13): what the orders need beyond 0002.
--
-- contact_key: the mailbox the order's contact reaches (contact.ts mailboxKey: an e-mail without
-- its +tag, Gmail without dots; a phone as is). The per-contact ticket limit and the caps on open
-- unpaid orders count by it, so `a+1@x` and `a+2@x` share one limit. Orders made before this
-- migration have none: they count by their contact lower-cased (orders.ts CONTACT_KEY; their
-- aliases are not merged). A migration holds schema only (tests/unit/seed-files.test.ts).
ALTER TABLE orders ADD COLUMN contact_key TEXT;
-- pay_start_ms: when the visitor first went to pay (doUnifiedOrder). The 30-minute window of
-- spec §9 runs from there; before it an order holds its tickets for the short checkout hold only.
ALTER TABLE orders ADD COLUMN pay_start_ms INTEGER;
-- late_payment: a payment that arrived after the hold ended. 1 honoured (tickets issued, stock
-- allowed it), 2 marked for automatic refund (no stock left): the operator's list.
ALTER TABLE orders ADD COLUMN late_payment INTEGER CHECK (late_payment IN (1, 2));
CREATE INDEX orders_late ON orders(late_payment) WHERE late_payment IS NOT NULL;
-- A class 8 registration of an order with a refund applied is void: registrations.use_status 2
-- (beyond docs/upstream.md's 0 unused / 1 used), set in the same transaction as the refund and given
-- back (0) when the application is withdrawn.
