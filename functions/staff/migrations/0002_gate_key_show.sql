-- Issue 30: the gate page names the show. A key may name the customer url (`urls_id`, the `fId` of
-- the show's visitor links) whose organiser config (getCustomerId) gives the show's name in the
-- staff's language; NULL (older keys, or none given): the page names the expo by its id.
ALTER TABLE gate_keys ADD COLUMN urls_id INTEGER;
