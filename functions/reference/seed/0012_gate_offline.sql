-- A check-in demo credential of expo 1308 kept for the offline gate's browser test
-- (tests/e2e/gate-offline.spec.ts, SEED.md "Check-in"): maxCount 1, scanned by no other spec, so
-- the test can admit it offline, admit it online meanwhile and see the double entry. Idempotent.
INSERT INTO registrations (id, expo_id, urls_id, eu_code, uname, eu_class, eu_define, ticket_name, activity_id, createtime, ucompany, ucardid, ucompany_title, email, phone, use_status, used_count, max_count, audit_status, valid_days) VALUES
  (100211, 1308, 21308, 'OQ3ZK7NB2WLXT5HD', '郑九 Gate Offline', 0, NULL, NULL, NULL, '2026-03-08 12:00:00', 'Demo Co.', NULL, 'Manager', 'gate-offline@demo.test', NULL, 0, 0, 1, 0, NULL)
ON CONFLICT DO NOTHING;
