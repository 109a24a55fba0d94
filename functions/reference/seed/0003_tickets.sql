-- Demo tickets, discount codes and refund windows (issue 11; SEED.md "Tickets"). Not a migration;
-- idempotent like 0001: every INSERT is ON CONFLICT DO NOTHING, the UPDATEs set fixed values.
-- Prices in minor units: 1216 in fen (CNY), 2002 in cents (SGD), 1261 in satang (THB; src/lib/tickets/money.ts).

-- 1216's two tickets of 0001 gain stock, sale window and limits.
-- 1: little stock left (20 in all, 12 sold before: 8 left). 2: unlimited, at most 6 per contact.
UPDATE tickets SET stock = 20, sale_start = '2026-01-01 00:00:00', sale_end = '2027-06-30 18:00:00', limit_per_contact = 0, need_review = 0 WHERE id = 1 AND expo_id = 1216;
UPDATE tickets SET stock = 0, sale_start = '2026-01-01 00:00:00', sale_end = '2027-06-30 18:00:00', limit_per_contact = 6, need_review = 0 WHERE id = 2 AND expo_id = 1216;

INSERT INTO tickets (id, expo_id, urls_id, ticket_name, original_price, current_price, sold_count, sale_date, stock, sale_start, sale_end, limit_per_contact, need_review) VALUES
  -- a paid order waits for the organiser's review
  (3, 1216, 21216, '贵宾审核票 VIP Pass (reviewed)', 50000, 50000, 0, '2026-01-01 00:00:00', 100, '2026-01-01 00:00:00', '2027-06-30 18:00:00', 0, 1),
  -- sold out
  (4, 1216, 21216, '早鸟票 Early Bird', 10000, 5000, 50, '2026-01-01 00:00:00', 50, '2026-01-01 00:00:00', '2027-06-30 18:00:00', 0, 0),
  -- not yet on sale
  (5, 1216, 21216, '闭幕日票 Closing Day', 10000, 10000, 0, '2027-06-01 00:00:00', 100, '2027-06-01 00:00:00', '2027-06-30 18:00:00', 0, 0),
  -- one ticket left each (the browser specs let an order on them expire, one per project)
  (6, 1216, 21216, '夜场票 Evening Pass', 6000, 6000, 30, '2026-01-01 00:00:00', 31, '2026-01-01 00:00:00', '2027-06-30 18:00:00', 0, 0),
  (7, 1216, 21216, '论坛票 Forum Pass', 6000, 6000, 10, '2026-01-01 00:00:00', 11, '2026-01-01 00:00:00', '2027-06-30 18:00:00', 0, 0),
  -- 2002 (SGD): unlimited, and one with a single ticket left
  (21, 2002, 22002, 'Day Pass', 2500, 2000, 40, '2026-01-01 00:00:00', 0, '2026-01-01 00:00:00', '2027-12-31 18:00:00', 0, 0),
  (22, 2002, 22002, 'VIP Lounge Pass', 15000, 12000, 4, '2026-01-01 00:00:00', 5, '2026-01-01 00:00:00', '2027-12-31 18:00:00', 1, 0),
  -- 1261 (THB, satang): an expo whose pages follow the visitor's language, so the purchase pages
  -- are tried in zh, en and thai (issue 23; 1216 forces Chinese and 2002 English)
  (23, 1261, 21261, 'Business Day Ticket', 150000, 120000, 0, '2026-01-01 00:00:00', 0, '2026-01-01 00:00:00', '2027-12-31 18:00:00', 0, 0) ON CONFLICT DO NOTHING;

-- Discount codes (spec §5 'not available enough times' when used up).
INSERT INTO discount_codes (expo_id, ticket_id, code, price, max_uses, used_before) VALUES
  (1216, 2, 'EARLY50', 12500, 0, 0),
  (1216, 2, 'USEDUP', 10000, 5, 5),
  (1216, 1, 'DAY10', 7000, 100, 3),
  (2002, 21, 'SAVE5', 1500, 0, 0),
  (1261, 23, 'THAI200', 100000, 0, 0) ON CONFLICT DO NOTHING;

-- Refund windows (ifOpenRefund): 1216 open until its deadline, 2002 closed.
INSERT INTO refund_settings (expo_id, open, deadline) VALUES
  (1216, 1, '2027-06-30 23:59:59'),
  (2002, 0, NULL) ON CONFLICT DO NOTHING;

-- The payment methods by the names visitors know (docs/upstream.md "Records": customerWx.payName1
-- for payType 1, payName2 for payType 2, our reading): 1216 names both; 2002 names none and keeps
-- the generic "messaging-app payment" / "payment app".
UPDATE customer_wx SET config = json_set(config, '$.payName1', '微信支付', '$.payName2', '支付宝') WHERE id = 61216;
