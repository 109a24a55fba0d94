-- Check-in at the gate (docs/upstream.md "Check-in (the gate)").
-- valid_days: NULL = a pass for the whole show, its entries counted once (registrations.used_count
-- against max_count); else a JSON array of expo-local days ("YYYY-MM-DD") the pass is valid on,
-- max_count then applies per day (checkin_days) and used_count is the total over every day.
ALTER TABLE registrations ADD COLUMN valid_days TEXT CHECK (valid_days IS NULL OR (json_valid(valid_days) AND json_type(valid_days) = 'array'));

-- Admissions per day of a pass valid on listed days, keyed by the scan's expo-local day.
CREATE TABLE checkin_days (
  expo_id INTEGER NOT NULL,
  eu_code TEXT NOT NULL,
  day TEXT NOT NULL,
  used_count INTEGER NOT NULL DEFAULT 0 CHECK (used_count >= 0),
  PRIMARY KEY (expo_id, eu_code, day)
);

-- Every scan, admitted or refused, with its gate and the time it happened (expo-local; a scan made
-- offline and synced later keeps its own time and day): lastEntry, the stats, a CSV export.
CREATE TABLE scan_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL,
  eu_code TEXT NOT NULL,
  gate TEXT NOT NULL,
  scanned_at TEXT NOT NULL,
  day TEXT NOT NULL,
  hour INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
  result TEXT NOT NULL CHECK (result IN ('admitted', 'used', 'review', 'void', 'otherDay', 'otherExpo', 'unknown')),
  received_at INTEGER NOT NULL
);
CREATE INDEX scan_log_entries ON scan_log(expo_id, eu_code, result, scanned_at);
CREATE INDEX scan_log_stats ON scan_log(expo_id, day, hour, gate);
