-- Check-in demo credentials of expo 1308 (SEED.md "Check-in", docs/upstream.md "Check-in (the gate)"):
-- one code admitted once (maxCount 1), a pass valid on two days (maxCount 1 a day), one awaiting
-- review and one void (its refund applied for), for the gate's refusals. Idempotent
-- like every seed file; the other demo registrations keep their counts (valid_days NULL: whole show).
INSERT INTO registrations (id, expo_id, urls_id, eu_code, uname, eu_class, eu_define, ticket_name, activity_id, createtime, ucompany, ucardid, ucompany_title, email, phone, use_status, used_count, max_count, audit_status, valid_days) VALUES
  (100201, 1308, 21308, 'PF4R5MHUHIPEQBHR', '钱五 Gate Once', 0, NULL, NULL, NULL, '2026-03-08 10:00:00', 'Demo Co.', NULL, 'Manager', 'gate-once@demo.test', NULL, 0, 0, 1, 0, NULL),
  (100202, 1308, 21308, 'EP6PXRDQ7N7CNGD6', '孙六 Two Days', 8, NULL, '两日票 Two-Day Pass', NULL, '2026-03-08 10:30:00', 'Demo Co.', NULL, 'Manager', 'gate-twoday@demo.test', NULL, 0, 0, 1, 0, '["2026-12-01","2026-12-02"]'),
  (100203, 1308, 21308, 'AR7OY5Q6XIPMQUBJ', '周七 Under Review', 0, NULL, NULL, NULL, '2026-03-08 11:00:00', 'Demo Co.', NULL, 'Manager', 'gate-review@demo.test', NULL, 0, 0, 1, 1, NULL),
  (100204, 1308, 21308, 'CK5VBXPY6SF65ERR', '吴八 Refunded', 8, NULL, '全程通票 Full Pass', NULL, '2026-03-08 11:30:00', 'Demo Co.', NULL, 'Manager', 'gate-void@demo.test', NULL, 2, 0, 1, 0, NULL)
ON CONFLICT DO NOTHING;
