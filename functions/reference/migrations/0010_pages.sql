-- The expo's articles and its registration channels (docs/upstream.md "Articles", "Channels";
-- spec §2.3 /article and /channel/{id}, §7 expoInfo/getArticleList and queryCustomerChannelId).
-- An article's url and cover are stored as the organiser typed them: the edge links only
-- http(s) addresses and shows only http(s) or same-site images.
CREATE TABLE articles (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL REFERENCES expos(id),
  title TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  cover_img TEXT NOT NULL DEFAULT '',
  publish_time TEXT NOT NULL,
  url TEXT NOT NULL DEFAULT ''
);
-- The list's order: newest first, then the highest id.
CREATE INDEX articles_expo ON articles (expo_id, publish_time DESC, id DESC);

-- A channel leads to one customer url of its expo; head_img_url is a comma-separated image list.
CREATE TABLE channels (
  id INTEGER PRIMARY KEY,
  expo_id INTEGER NOT NULL,
  urls_id INTEGER NOT NULL,
  channel_name TEXT NOT NULL DEFAULT '',
  head_img_url TEXT NOT NULL DEFAULT '',
  FOREIGN KEY (expo_id, urls_id) REFERENCES customer_urls(expo_id, id)
);
