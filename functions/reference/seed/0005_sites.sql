-- Site booking demo (SEED.md "Site booking"): expo 1308 (IEAE) and expo 1216 (generic, tickets).
-- Idempotent like every seed file: rows a visitor changed (booked counts) are kept.
INSERT INTO site_types (id, expo_id, name, note, sort) VALUES
  (501, 1308, '展馆导览 Guided hall tour', '45 min, meet at the north entrance', 1),
  (502, 1308, '新品发布会 Launch session', 'Hall B stage', 2),
  (511, 1216, '工厂参观 Factory visit', 'Bus from gate 2', 1)
ON CONFLICT DO NOTHING;

-- 5103 has one place left, 5104 is full: the full and last-place cases.
INSERT INTO site_dates (id, expo_id, type_id, date, time_range, capacity, booked) VALUES
  (5101, 1308, 501, '2026-12-01', '09:00-10:00', 20, 3),
  (5102, 1308, 501, '2026-12-01', '14:00-15:00', 20, 0),
  (5103, 1308, 501, '2026-12-02', '09:00-10:00', 10, 9),
  (5104, 1308, 502, '2026-12-02', '15:00-16:00', 2, 2),
  (5105, 1308, 502, '2026-12-03', '15:00-16:00', 30, 0),
  (5111, 1216, 511, '2026-12-05', '10:00-12:00', 15, 0)
ON CONFLICT DO NOTHING;
