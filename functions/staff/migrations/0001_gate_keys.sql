-- The edge's own storage (binding STAFF, database expo-pass-staff): staff gate keys (README "The gate").
-- A key is 32 random bytes, base64url; only its SHA-256 (lowercase hex) is kept. `id` is a short
-- public id for listing and revoking. Times are epoch milliseconds.
CREATE TABLE IF NOT EXISTS gate_keys (
  id TEXT PRIMARY KEY,
  hash TEXT UNIQUE NOT NULL,
  expo_id INTEGER NOT NULL,
  gate TEXT NOT NULL,
  created_at INTEGER,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS gate_keys_expo ON gate_keys (expo_id, created_at);
