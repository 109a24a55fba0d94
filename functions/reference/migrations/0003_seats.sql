-- Seat lookup and health upload (docs/upstream.md "Seat lookup", "Health upload"; issue 12).

-- Consent to be found by name (issue 12): a registration of a seat-lookup expo carries the
-- form value `seatConsent` (a checkbox, unticked by default: ["1"] when ticked). The column
-- reads it from the stored values, so every way a registration is written (new, update,
-- repair) keeps it in step; only registrations with 1 appear in seat answers.
ALTER TABLE registrations ADD COLUMN seat_consent INTEGER GENERATED ALWAYS AS (
  CASE
    WHEN json_extract(form_values, '$.seatConsent') IN ('1', 1, 'true') THEN 1
    WHEN json_extract(form_values, '$.seatConsent[0]') IN ('1', 1, 'true') THEN 1
    ELSE 0
  END
) VIRTUAL;

-- Activity types of the seat lookup (pageActivityType, classification 10).
CREATE TABLE seat_activity_types (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  activity_name TEXT NOT NULL,
  classification INTEGER NOT NULL DEFAULT 10
);
CREATE INDEX seat_activity_types_expo ON seat_activity_types(expo_id, classification);

-- One person's seat in one activity type; the person is a registration (for its consent).
-- type_id NULL: the expo's main seat (getUserSeatDetail).
CREATE TABLE seats (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  registration_id INTEGER NOT NULL REFERENCES registrations(id),
  type_id INTEGER REFERENCES seat_activity_types(id),
  seat TEXT NOT NULL,
  seat_number TEXT NOT NULL DEFAULT '',
  UNIQUE (registration_id, type_id)
);
CREATE INDEX seats_expo ON seats(expo_id, type_id);

-- Named images of an expo (getImage): e.g. `seat`, the seat map.
CREATE TABLE expo_images (
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  image_name TEXT NOT NULL,
  url TEXT NOT NULL,
  PRIMARY KEY (expo_id, image_name)
);

-- Health uploads (uploadEpidemicPreventionInfo): the file's bytes in chunks, because a D1
-- row holds at most 2 MB and an upload may be 5 MB.
CREATE TABLE health_uploads (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  eu_code TEXT NOT NULL,
  kind INTEGER NOT NULL CHECK (kind IN (1, 2, 3)),
  content_type TEXT NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  size INTEGER NOT NULL,
  chunks INTEGER NOT NULL,
  create_time TEXT NOT NULL,
  complete INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX health_uploads_owner ON health_uploads(expo_id, eu_code);

CREATE TABLE health_chunks (
  upload_id INTEGER NOT NULL REFERENCES health_uploads(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  bytes BLOB NOT NULL,
  PRIMARY KEY (upload_id, seq)
);
