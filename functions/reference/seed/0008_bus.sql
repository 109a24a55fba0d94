-- Shuttle bus demo (SEED.md "Shuttle bus"): expo 1308 (IEAE). Idempotent like every seed file:
-- rows a visitor changed (booked counts, reservations) are kept.
INSERT INTO bus_lines (id, expo_id, name, note, sort) VALUES
  (801, 1308, '地铁线 Metro line', 'Free for registered visitors; show your registration code when boarding', 1),
  (802, 1308, '机场线 Airport line', '', 2)
ON CONFLICT DO NOTHING;

INSERT INTO bus_stops (id, line_id, name, sort) VALUES
  (8011, 801, '地铁2号线 Metro Line 2, Exit B', 1),
  (8012, 801, '会展酒店 Expo Hotel', 2),
  (8013, 801, '展馆北门 Hall north gate', 3),
  (8021, 802, '机场T2 Airport Terminal 2', 1),
  (8022, 802, '展馆北门 Hall north gate', 2)
ON CONFLICT DO NOTHING;

-- 8103 has one seat left (the last seat), 8104 is full.
INSERT INTO bus_departures (id, line_id, depart_time, capacity, booked) VALUES
  (8101, 801, '2026-12-01 08:30:00', 40, 12),
  (8102, 801, '2026-12-01 09:30:00', 40, 0),
  (8103, 801, '2026-12-02 08:30:00', 40, 39),
  (8104, 802, '2026-12-01 07:00:00', 20, 20),
  (8105, 802, '2026-12-02 07:00:00', 20, 1)
ON CONFLICT DO NOTHING;

-- A seeded reservation: +8613900139000's registration (XCOE6GON4WB4N6BR) rides the airport line on
-- 8105 from Terminal 2 (its seat is the 1 booked above).
INSERT INTO bus_reservations (id, expo_id, eu_code, line_id, departure_id, stop_id, created_at) VALUES
  (1, 1308, 'XCOE6GON4WB4N6BR', 802, 8105, 8021, '2026-11-20 10:00:00')
ON CONFLICT DO NOTHING;
