-- A scan's own id, given by the scanner (docs/upstream.md "Check-in (the gate)"): a scan made
-- offline and synced again after a lost reply is answered with its first result and counted once.
-- NULL for a scan without one (SQLite keeps NULLs distinct in a UNIQUE index, so those never clash).
ALTER TABLE scan_log ADD COLUMN scan_id TEXT CHECK (scan_id IS NULL OR length(scan_id) BETWEEN 1 AND 64);
CREATE UNIQUE INDEX scan_log_scan_id ON scan_log(expo_id, scan_id);

-- checkInLog reads an expo's scans oldest first, in pages.
CREATE INDEX scan_log_time ON scan_log(expo_id, scanned_at, id);
