-- Shuttle bus (spec §2.3 `/bus`, `/busInfo`; docs/upstream.md "Shuttle bus"): an expo's lines,
-- their stops in riding order, their departures with a seat count, and the registrations'
-- reservations. `booked` is the count the atomic reservation moves (functions/reference/calls/bus.ts);
-- the CHECK is the last guard: a statement that would oversell fails, and its batch rolls back.
CREATE TABLE bus_lines (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  name TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX bus_lines_expo ON bus_lines (expo_id, sort, id);

CREATE TABLE bus_stops (
  id INTEGER PRIMARY KEY,
  line_id INTEGER NOT NULL REFERENCES bus_lines(id),
  name TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX bus_stops_line ON bus_stops (line_id, sort, id);

CREATE TABLE bus_departures (
  id INTEGER PRIMARY KEY,
  line_id INTEGER NOT NULL REFERENCES bus_lines(id),
  depart_time TEXT NOT NULL,
  capacity INTEGER NOT NULL CHECK (capacity >= 0),
  booked INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0 AND booked <= capacity)
);
CREATE INDEX bus_departures_line ON bus_departures (line_id, depart_time, id);

-- One seat per registration and line (20302: cancel it first).
CREATE TABLE bus_reservations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  eu_code TEXT NOT NULL,
  line_id INTEGER NOT NULL REFERENCES bus_lines(id),
  departure_id INTEGER NOT NULL REFERENCES bus_departures(id),
  stop_id INTEGER NOT NULL REFERENCES bus_stops(id),
  created_at TEXT NOT NULL,
  UNIQUE (expo_id, eu_code, line_id)
);
