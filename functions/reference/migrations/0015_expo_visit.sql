-- What a visitor needs to find the show (docs/upstream.md "Records", config expoInfo): when it
-- opens (start_time, "YYYY-MM-DD HH:mm:ss" expo-local, like end_time), the hall, and whom to
-- contact. All optional: the pages show what is there.
ALTER TABLE expos ADD COLUMN start_time TEXT;
ALTER TABLE expos ADD COLUMN hall TEXT;
ALTER TABLE expos ADD COLUMN contact_phone TEXT;
ALTER TABLE expos ADD COLUMN contact_email TEXT;
