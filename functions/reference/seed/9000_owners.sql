-- Owners of the demo registrations (migration 0005, docs/upstream.md "Who owns a registration"):
-- the seed's stored phone and e-mail count as proven, so the demo contacts of SEED.md find their
-- registrations. Only rows without any owner change (a row a visitor registered always has
-- one), so the file is idempotent. Named to sort after every other seed file: it must run last.
UPDATE registrations SET owner_phone = phone, owner_email = email
WHERE owner_phone IS NULL AND owner_email IS NULL;
