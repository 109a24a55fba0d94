-- Exhibitor registrations (spec §7 exhiCustomerUser/addExhiUserInfor; docs/upstream.md
-- "Exhibitor registration"). Each is also a class 2 row of `registrations` (its credential, spec
-- §3), owned by the proven contact like every registration (migration 0005). This table keeps
-- what only an exhibitor has (company, booth, contact person) and makes one exhibitor
-- registration per proven contact and company: a repeat (or 40 at once) finds the same row.
CREATE TABLE exhibitors (
  registration_id INTEGER PRIMARY KEY REFERENCES registrations(id),
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  urls_id INTEGER NOT NULL,
  -- the proven contact: 'email:' + the e-mail (lower case) or 'phone:' + the full phone
  owner TEXT NOT NULL,
  company TEXT NOT NULL,
  -- the company as compared: trimmed, lower case, inner spaces collapsed by the caller
  company_key TEXT NOT NULL,
  booth_no TEXT,
  contact_person TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX exhibitors_owner_company ON exhibitors(expo_id, owner, company_key);
