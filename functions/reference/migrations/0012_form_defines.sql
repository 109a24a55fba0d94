-- The custom registration labels an organiser sets up per customer url (spec §3 euDefine, §7
-- "getForm: define, eId, fId"; docs/upstream.md "Messaging app"): a link carrying `?define=`
-- registers with that label only when it is one of this url's. `name` is the text to show.
CREATE TABLE IF NOT EXISTS form_defines (
  expo_id INTEGER NOT NULL,
  urls_id INTEGER NOT NULL,
  define TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (expo_id, urls_id, define)
);
