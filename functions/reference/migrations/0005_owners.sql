-- Who owns a registration (issue 19 item 1; docs/upstream.md "Who owns a registration").
-- `phone` and `email` hold what was typed into the form, proven or not: they are data. The
-- proven owner is the contact the edge verified with a code (its `checkType` says which), kept
-- per channel: owner_phone (full E.164) and owner_email (case-insensitive), each NULL unless
-- that contact was proven for this registration. Lookups, 20001 prompts, updates, second and
-- repair forms match these columns alone; a typed second contact never owns a row.
ALTER TABLE registrations ADD COLUMN owner_phone TEXT;
ALTER TABLE registrations ADD COLUMN owner_email TEXT COLLATE NOCASE;

-- Rows written before this migration (and the demo seed, functions/reference/seed/9000_owners.sql):
-- their stored phone and e-mail count as proven, so every contact that found them still does.
-- A row written from now on always has an owner (addUserInfo, payments), so "no owner at all"
-- marks an older row only.
UPDATE registrations SET owner_phone = phone, owner_email = email
WHERE owner_phone IS NULL AND owner_email IS NULL;

CREATE INDEX registrations_owner_phone ON registrations(expo_id, owner_phone);
CREATE INDEX registrations_owner_email ON registrations(expo_id, owner_email);
