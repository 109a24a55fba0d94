-- Reference upstream schema (docs/upstream.md; entities of spec §3).
-- Times the wire shows ("YYYY-MM-DD HH:mm:ss", expo-local) are TEXT; times only the
-- reference reasons about (code expiry, rate limits) are INTEGER milliseconds since epoch.

-- Expo info (spec §3). utc_offset_minutes turns "now" into expo-local createtime.
CREATE TABLE expos (
  id INTEGER PRIMARY KEY,
  aes_key TEXT NOT NULL CHECK (length(aes_key) = 16),
  exhi_name TEXT,
  exhi_name_en TEXT,
  address TEXT,
  end_time TEXT,
  show_logo TEXT,
  bottom_href TEXT,
  bottom_instructions TEXT,
  utc_offset_minutes INTEGER NOT NULL DEFAULT 480
);

-- Customer urls (spec §3): one per registration entry point (visitor, exhibitor, ...).
-- eu_class is the class a registration through this url receives (0 visitor, 2 exhibitor).
-- Keyed by expo too: spec §2.2 gives url id 8730 to both 1106 and 1179.
CREATE TABLE customer_urls (
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  id INTEGER NOT NULL,
  long_url TEXT,
  head_img_url TEXT,
  eu_class INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (expo_id, id)
);

-- Customer config, customerWx (spec §3): config is a JSON object of the remaining fields.
CREATE TABLE customer_wx (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL,
  urls_id INTEGER NOT NULL,
  config TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(config) AND json_type(config) = 'object'),
  UNIQUE (expo_id, urls_id),
  FOREIGN KEY (expo_id, urls_id) REFERENCES customer_urls(expo_id, id)
);

-- Activity of a customer url (spec §3); none = null in getCustomerId.
CREATE TABLE activities (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL,
  urls_id INTEGER NOT NULL,
  activity_name TEXT NOT NULL,
  UNIQUE (expo_id, urls_id),
  FOREIGN KEY (expo_id, urls_id) REFERENCES customer_urls(expo_id, id)
);

-- Tickets on sale per url (spec §2.4 ticket variant: shown when the list is non-empty).
-- Prices in minor units. Not served by a call yet (selectUrlsTicketList comes later).
CREATE TABLE tickets (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL,
  urls_id INTEGER NOT NULL,
  ticket_name TEXT NOT NULL,
  original_price INTEGER NOT NULL,
  current_price INTEGER NOT NULL,
  sold_count INTEGER NOT NULL DEFAULT 0,
  sale_date TEXT,
  FOREIGN KEY (expo_id, urls_id) REFERENCES customer_urls(expo_id, id)
);

-- Registration form definition: a url's own, else the expo's default (urls_id NULL).
CREATE TABLE customer_forms (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  urls_id INTEGER,
  fields TEXT NOT NULL CHECK (json_valid(fields))
);
CREATE UNIQUE INDEX customer_forms_scope ON customer_forms(expo_id, ifnull(urls_id, 0));

-- Registration records (docs/upstream.md "Records") plus usage and the contacts they match on.
-- phone is full E.164; email is matched case-insensitively.
CREATE TABLE registrations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  urls_id INTEGER,
  eu_code TEXT NOT NULL UNIQUE,
  uname TEXT,
  eu_class INTEGER NOT NULL DEFAULT 0,
  eu_define TEXT,
  ticket_name TEXT,
  activity_id INTEGER,
  createtime TEXT NOT NULL,
  ucompany TEXT,
  ucardid TEXT,
  ucompany_title TEXT,
  email TEXT COLLATE NOCASE,
  phone TEXT,
  use_status INTEGER NOT NULL DEFAULT 0,
  used_count INTEGER NOT NULL DEFAULT 0,
  max_count INTEGER NOT NULL DEFAULT 1,
  audit_status INTEGER NOT NULL DEFAULT 0,
  form_values TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(form_values))
);
CREATE INDEX registrations_email ON registrations(expo_id, email);
CREATE INDEX registrations_phone ON registrations(expo_id, phone);
CREATE INDEX registrations_cardid ON registrations(expo_id, ucardid);

-- Second forms still to complete (code 20003, Jakarta and Bangkok): user_id is the registration id.
CREATE TABLE second_forms (
  user_id INTEGER PRIMARY KEY REFERENCES registrations(id),
  urls_id INTEGER NOT NULL,
  saved_values TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(saved_values)),
  completed INTEGER NOT NULL DEFAULT 0
);

-- One live code per expo and contact: a new send replaces the old one.
-- code_hash = SHA-256(salt || code), hex; salt is 16 random bytes, hex.
CREATE TABLE verification_codes (
  expo_id INTEGER NOT NULL,
  contact TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  salt TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  wrong_tries INTEGER NOT NULL DEFAULT 0,
  verified_at INTEGER,
  PRIMARY KEY (expo_id, contact)
);

-- Every delivered send, for the per-expo, per-contact limits (60 s apart, 5 an hour).
CREATE TABLE send_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  contact TEXT NOT NULL,
  expo_id INTEGER NOT NULL,
  sent_at INTEGER NOT NULL
);
CREATE INDEX send_log_contact ON send_log(contact, expo_id, sent_at);

-- Development outbox (DEV_OUTBOX=1): codes that would have been sent.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
  to_contact TEXT NOT NULL,
  code TEXT NOT NULL,
  expo_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX outbox_to ON outbox(to_contact, id);

-- addUserInfo replies by request digest, so an identical repeat within a short window
-- answers the same registration instead of 20001.
CREATE TABLE idempotency (
  key TEXT PRIMARY KEY,
  reply TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
