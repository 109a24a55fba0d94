-- Visit information of the demo expos (docs/upstream.md "Records", expoInfo startTime, hall,
-- contactPhone, contactEmail). Idempotent: plain updates.
UPDATE expos SET start_time = '2026-12-01 09:00:00', hall = 'Hall 1–3', contact_phone = '+86 20 8888 1308', contact_email = 'visitor@ieae.example' WHERE id = 1308;
UPDATE expos SET start_time = '2027-12-29 09:00:00', hall = 'Hall 101', contact_phone = '+66 2 749 3939', contact_email = 'visitor-registration@bangkok-international-trade-expo.example' WHERE id = 1179;
UPDATE expos SET start_time = '2027-12-29 10:00:00', hall = 'Hall B', contact_email = 'help@expo1216.example' WHERE id = 1216;
