-- Tickets and orders (docs/upstream.md "Tickets and orders"; spec §1, §3 ticket labels, §4 order
-- states, §9 the 30-minute window). Money in minor units (INTEGER); times the wire shows are
-- expo-local "YYYY-MM-DD HH:mm:ss" TEXT (sale window); times only the reference reasons about
-- (hold expiry, payment) are INTEGER milliseconds since epoch.

-- The ticket table of 0001 gains what selectUrlsTicketList answers.
-- stock: tickets in all, sold_count (0001) included; 0 = unlimited.
-- sold_count stays the tickets sold before this reference kept orders (seed); the wire's
-- soldCount adds the paid orders.
-- sale_start / sale_end: expo-local, NULL = no bound. limit_per_contact: 0 = no limit; it counts
-- every ticket of the expo the contact holds or has reserved (findUserBuyOrderNumByPhoneExpoId).
-- need_review 1: a paid order waits for the organiser's review (status 1).
ALTER TABLE tickets ADD COLUMN stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0);
ALTER TABLE tickets ADD COLUMN sale_start TEXT;
ALTER TABLE tickets ADD COLUMN sale_end TEXT;
ALTER TABLE tickets ADD COLUMN limit_per_contact INTEGER NOT NULL DEFAULT 0 CHECK (limit_per_contact >= 0);
ALTER TABLE tickets ADD COLUMN need_review INTEGER NOT NULL DEFAULT 0 CHECK (need_review IN (0, 1));

-- Discount codes per ticket: price is the price per ticket with the code; max_uses 0 = unlimited.
-- A use is a ticket of an order that holds or has paid (unpaid in its window, pending review,
-- paid, refund applied): a cancelled, timed-out or refunded order gives its uses back.
CREATE TABLE discount_codes (
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  ticket_id INTEGER NOT NULL REFERENCES tickets(id),
  code TEXT NOT NULL,
  price INTEGER NOT NULL CHECK (price >= 0),
  max_uses INTEGER NOT NULL DEFAULT 0 CHECK (max_uses >= 0),
  -- uses made before this reference kept orders (seed), counted like sold_count
  used_before INTEGER NOT NULL DEFAULT 0 CHECK (used_before >= 0),
  PRIMARY KEY (expo_id, ticket_id, code)
);

-- Refund window per expo (ifOpenRefund). No row = closed.
CREATE TABLE refund_settings (
  expo_id INTEGER PRIMARY KEY REFERENCES expos(id),
  open INTEGER NOT NULL DEFAULT 0 CHECK (open IN (0, 1)),
  deadline TEXT
);

-- Orders (docs/upstream.md "An order"). status: 0 unpaid, 1 payment pending review, 2 paid, 3
-- cancelled, 4 timed out, 5 refund applied, 6 refunded. An unpaid order past expire_ms reads
-- as 4 and holds nothing (every count below filters on expire_ms), so no sweep is needed for
-- correctness. contact_column/contact: the contact the edge verified (checkType), normalised
-- like registrations.email/phone. idem: the buyer form's idempotency key (beyond the contract,
-- README): a repeat of the same form makes no second order.
-- refund_status: NULL none, 0 applied, 1 refunded, 2 application withdrawn.
CREATE TABLE orders (
  order_no TEXT PRIMARY KEY,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  urls_id INTEGER NOT NULL,
  ticket_id INTEGER NOT NULL REFERENCES tickets(id),
  ticket_name TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  price INTEGER NOT NULL CHECK (price >= 0),
  discount_code TEXT,
  total_fee INTEGER NOT NULL CHECK (total_fee >= 0),
  pay_type INTEGER NOT NULL CHECK (pay_type IN (1, 2)),
  status INTEGER NOT NULL DEFAULT 0 CHECK (status BETWEEN 0 AND 6),
  contact_column TEXT NOT NULL CHECK (contact_column IN ('phone', 'email')),
  contact TEXT NOT NULL COLLATE NOCASE,
  form_values TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(form_values)),
  idem TEXT,
  create_ms INTEGER NOT NULL,
  expire_ms INTEGER NOT NULL,
  pay_ms INTEGER,
  pay_tx TEXT,
  return_url TEXT,
  refund_status INTEGER,
  refund_reason TEXT,
  refund_apply_ms INTEGER,
  refund_done_ms INTEGER
);
CREATE INDEX orders_contact ON orders(expo_id, contact, create_ms);
CREATE INDEX orders_ticket ON orders(ticket_id, status, expire_ms);
CREATE UNIQUE INDEX orders_idem ON orders(expo_id, contact, idem) WHERE idem IS NOT NULL;

-- The class 8 registration each ticket of a paid order becomes.
ALTER TABLE registrations ADD COLUMN order_no TEXT;
CREATE INDEX registrations_order ON registrations(order_no);

-- Payment notifications applied (the simulator's, or a provider's): one row per transaction,
-- so a notification delivered twice changes nothing the second time.
CREATE TABLE pay_notifications (
  tx_id TEXT PRIMARY KEY,
  order_no TEXT NOT NULL,
  result TEXT NOT NULL,
  received_ms INTEGER NOT NULL
);
