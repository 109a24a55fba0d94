-- A custom registration label of demo expo 1308's visitor url 21308 (SEED.md "Custom labels",
-- spec §7 getForm): `/form/21308/MTMwOA/visitor?define=VIP`. Idempotent like every seed file.
INSERT INTO form_defines (expo_id, urls_id, define, name) VALUES
  (1308, 21308, 'VIP', 'VIP 贵宾 VIP guest')
ON CONFLICT DO NOTHING;
