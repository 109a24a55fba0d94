-- The haisi family (spec §2.3 routes, §7 calls; our reading: docs/upstream.md "Haisi").
-- hai_expos: the expos the family's calls (queryHaiPhone, addHaiUserInfo, addHaiUserInfoNew,
-- addHaiExpoUserNew) answer for; every other expo gets 404 from them.
CREATE TABLE hai_expos (
  expo_id INTEGER PRIMARY KEY REFERENCES expos(id)
);

-- Which of the family's registration calls wrote a row (addHaiUserInfo: the Chinese form,
-- addHaiUserInfoNew: the English form); NULL for every other registration.
ALTER TABLE registrations ADD COLUMN hai_call TEXT;
