-- Site booking (spec §1 "site/seat booking", §7 from/site; docs/upstream.md "Site booking"):
-- an expo's visiting-slot types, their dates with a capacity, and the registrations' bookings.
-- `booked` is the count the atomic booking moves (functions/reference/calls/sites.ts); the CHECK
-- is the last guard: a statement that would oversell fails, and its batch rolls back.
CREATE TABLE site_types (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  name TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX site_types_expo ON site_types (expo_id, sort, id);

CREATE TABLE site_dates (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  type_id INTEGER NOT NULL REFERENCES site_types(id),
  date TEXT NOT NULL,
  time_range TEXT NOT NULL,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  booked INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0 AND booked <= capacity)
);
CREATE INDEX site_dates_type ON site_dates (type_id, date, time_range, id);

-- One booking per registration and type (20202: cancel it first).
CREATE TABLE site_bookings (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  eu_code TEXT NOT NULL,
  type_id INTEGER NOT NULL REFERENCES site_types(id),
  site_date_id INTEGER NOT NULL REFERENCES site_dates(id),
  created_at TEXT NOT NULL,
  UNIQUE (expo_id, eu_code, type_id)
);
