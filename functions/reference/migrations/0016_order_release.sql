-- When a cancelled order stopped holding its tickets (issue 29; functions/reference/holds.ts):
-- deleteOrderById writes it, and the same contact may not order that ticket again for the
-- cooldown after it. An order whose hold ran out stopped holding at its expire_ms. NULL for
-- orders cancelled before this migration (no cooldown).
ALTER TABLE orders ADD COLUMN released_ms INTEGER;
