-- Seat lookup and health upload demo data (issue 12; SEED.md "Seat lookup", "Pledge and health upload").
-- Idempotent like every seed file: INSERTs are ON CONFLICT DO NOTHING, UPDATEs set the same values.

-- Expo 2012: a generic Chinese lookup with the epidemic-prevention pledge and the health upload.
INSERT INTO expos (id, aes_key, exhi_name, exhi_name_en, address, end_time, show_logo, bottom_href, bottom_instructions, utc_offset_minutes) VALUES
  (2012, 'expo2012AesKey00', '健康承诺展', 'Health Pledge Expo', '上海', '2027-12-31 18:00:00', '/logo.jpg', NULL, NULL, 480) ON CONFLICT DO NOTHING;
INSERT INTO customer_urls (expo_id, id, long_url, head_img_url, eu_class) VALUES
  (2012, 22012, 'https://expo.example/2012/22012', '/logo.jpg', 0) ON CONFLICT DO NOTHING;
INSERT INTO customer_wx (id, expo_id, urls_id, config) VALUES
  (62012, 2012, 22012, '{"languageType": 1, "signType": 1, "isUserClass": 0, "headImgUrl": "/logo.jpg", "formTitle": "健康承诺展 观众预登记", "queryMethod": 2, "isOpenBusinessCard": 0, "healthPledge": 1, "wechatShare": "健康承诺展：立即预登记", "wecharDescription": "在线预登记，领取电子胸卡", "shareLog": "/logo.jpg"}') ON CONFLICT DO NOTHING;
INSERT INTO customer_forms (expo_id, urls_id, fields) VALUES
  (2012, NULL, '[{"key": "uname", "type": "text", "required": true, "label": {"zh": "姓名", "en": "Name", "thai": "ชื่อ-นามสกุล", "vn": "Họ và tên", "id": "Nama", "ms": "Nama", "tw": "姓名"}, "maxLength": 100}, {"key": "ucompany", "type": "text", "required": true, "label": {"zh": "公司名称", "en": "Company name", "thai": "ชื่อบริษัท", "vn": "Tên công ty", "id": "Nama perusahaan", "ms": "Nama syarikat", "tw": "公司名稱"}}, {"key": "email", "type": "email", "required": true, "label": {"zh": "电子邮箱", "en": "E-mail", "thai": "อีเมล", "vn": "Email", "id": "Email", "ms": "E-mel", "tw": "電子郵件"}}]') ON CONFLICT DO NOTHING;
-- 0001 and 0002 give every expo a default form when they run again after this file: 2012 keeps its own.
UPDATE customer_forms SET fields = '[{"key": "uname", "type": "text", "required": true, "label": {"zh": "姓名", "en": "Name", "thai": "ชื่อ-นามสกุล", "vn": "Họ và tên", "id": "Nama", "ms": "Nama", "tw": "姓名"}, "maxLength": 100}, {"key": "ucompany", "type": "text", "required": true, "label": {"zh": "公司名称", "en": "Company name", "thai": "ชื่อบริษัท", "vn": "Tên công ty", "id": "Nama perusahaan", "ms": "Nama syarikat", "tw": "公司名稱"}}, {"key": "email", "type": "email", "required": true, "label": {"zh": "电子邮箱", "en": "E-mail", "thai": "อีเมล", "vn": "Email", "id": "Email", "ms": "E-mel", "tw": "電子郵件"}}]' WHERE expo_id = 2012 AND urls_id IS NULL;

-- The second pledge expo: the seat-lookup variant 1197 (its seat lookup and forms show the pledge first).
UPDATE customer_wx SET config = json_set(config, '$.healthPledge', 1) WHERE id = 61197;

-- Registration forms of the seat-lookup expos offer the consent to be found by name: a checkbox,
-- unticked by default, stored as the form value `seatConsent` (["1"] when ticked).
UPDATE customer_forms SET fields = json_insert(fields, '$[#]', json('{"key": "seatConsent", "type": "checkbox", "required": false, "label": {"zh": "座位查询", "en": "Seat lookup", "thai": "ค้นหาที่นั่ง", "vn": "Tra cứu chỗ ngồi", "id": "Cari kursi", "ms": "Carian tempat duduk", "tw": "座位查詢"}, "options": [{"value": "1", "label": {"zh": "允许其他人通过我的姓名查询我的座位", "en": "Let other attendees find my seat by my name", "thai": "อนุญาตให้ผู้เข้าร่วมคนอื่นค้นหาที่นั่งของฉันด้วยชื่อ", "vn": "Cho phép người khác tìm chỗ ngồi của tôi theo tên", "id": "Izinkan peserta lain menemukan kursi saya dengan nama saya", "ms": "Benarkan peserta lain mencari tempat duduk saya dengan nama saya", "tw": "允許其他人透過我的姓名查詢我的座位"}}]}'))
WHERE urls_id IS NULL AND expo_id IN (1128, 1193, 1197, 1218, 1384, 1385, 1235)
  AND NOT EXISTS (SELECT 1 FROM json_each(customer_forms.fields) WHERE json_extract(value, '$.key') = 'seatConsent');

-- Seat holders (ids from 190001). seatConsent ["1"]: agreed to be found by name.
INSERT INTO registrations (id, expo_id, urls_id, eu_code, uname, eu_class, createtime, ucompany, email, form_values) VALUES
  (190001, 1128, 21128, 'SEATAZII2BZHANGI', '张伟', 0, '2026-03-01 10:00:00', '华信科技有限公司', 'seat-zhang1@demo.test', '{"seatConsent": ["1"]}'),
  (190002, 1128, 21128, 'SEATAZII2BZHANG2', '张伟', 0, '2026-03-01 10:01:00', '东方电子集团', 'seat-zhang2@demo.test', '{"seatConsent": ["1"]}'),
  (190003, 1128, 21128, 'SEATAZII2BZHANG3', '张伟', 0, '2026-03-01 10:02:00', '南方建设股份', 'seat-zhang3@demo.test', '{"seatConsent": ["1"]}'),
  (190004, 1128, 21128, 'SEATAZII2BLINAOI', '李娜', 0, '2026-03-01 10:03:00', '华信科技有限公司', 'seat-lina@demo.test', '{}'),
  (190005, 1128, 21128, 'SEATAZII2BWANGFI', '王芳', 0, '2026-03-01 10:04:00', '北辰物流', 'seat-wang@demo.test', '{"seatConsent": ["1"]}'),
  (190011, 1235, 21235, 'SEATAZI235CHENOI', '陈静', 0, '2026-03-01 10:00:00', '远航贸易有限公司', 'seat-chen1@demo.test', '{"seatConsent": ["1"]}'),
  (190012, 1235, 21235, 'SEATAZI235CHENO2', '陈静', 0, '2026-03-01 10:01:00', '蓝海医疗器械', 'seat-chen2@demo.test', '{"seatConsent": ["1"]}'),
  (190013, 1235, 21235, 'SEATAZI235ZHAOLI', '赵磊', 0, '2026-03-01 10:02:00', '远航贸易有限公司', 'seat-zhao@demo.test', '{"seatConsent": []}'),
  (190014, 1235, 21235, 'SEATAZI235LIUYOI', '刘洋', 0, '2026-03-01 10:03:00', '金桥咨询', 'seat-liu@demo.test', '{"seatConsent": ["1"]}'),
  (190021, 1197, 21197, 'SEATAZIIG7SUNYOI', '孙悦', 0, '2026-03-01 10:00:00', '星海会展', 'seat-sun@demo.test', '{"seatConsent": ["1"]}'),
  (190031, 2012, 22012, 'HEALTH2OI2JSOOOI', 'Health JS', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-js@demo.test', '{}'),
  (190032, 2012, 22012, 'HEALTH2OI2NOJSOI', 'Health NoJS', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-nojs@demo.test', '{}'),
  (190033, 2012, 22012, 'HEALTH2OI2EDGEOI', 'Health Edge', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-edge@demo.test', '{}'),
  (190034, 2012, 22012, 'HEALTH2OI2OTHERI', 'Health Other', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-other@demo.test', '{}'),
  (190035, 2012, 22012, 'HEALTH2OI2AIIYOI', 'Health A11y', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-a11y@demo.test', '{}'),
  (190036, 2012, 22012, 'HEALTH2OI2PHOTOI', 'Health Photo JS', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-photo-js@demo.test', '{}'),
  (190037, 2012, 22012, 'HEALTH2OI2PNOJSI', 'Health Photo NoJS', 0, '2026-03-01 10:00:00', 'Demo Co.', 'health-photo-nojs@demo.test', '{}')
ON CONFLICT DO NOTHING;

-- Activity types (pageActivityType, classification 10; spec §9 names ids 1132-1136, 1138, 1139, 1620, 1622).
INSERT INTO seat_activity_types (id, expo_id, activity_name, classification) VALUES
  (1132, 1128, '开幕式', 10),
  (1133, 1128, '欢迎晚宴', 10),
  (1620, 1235, '主论坛', 10),
  (1622, 1235, '颁奖典礼', 10)
ON CONFLICT DO NOTHING;

-- Seats: type_id NULL is the main seat (getUserSeatDetail); 王芳 and 刘洋 have two activities each.
INSERT INTO seats (id, expo_id, registration_id, type_id, seat, seat_number) VALUES
  (1, 1128, 190001, NULL, 'A区 01排 05座', 'A-01-05'),
  (2, 1128, 190002, NULL, 'A区 02排 11座', 'A-02-11'),
  (3, 1128, 190003, NULL, 'B区 07排 03座', 'B-07-03'),
  (4, 1128, 190004, NULL, 'C区 03排 08座', 'C-03-08'),
  (5, 1128, 190005, NULL, 'D区 10排 01座', 'D-10-01'),
  (6, 1128, 190005, 1132, '主会场 1排', '12'),
  (7, 1128, 190005, 1133, '宴会厅 5号桌', '3'),
  (8, 1128, 190001, 1132, '主会场 3排', '7'),
  (11, 1235, 190011, NULL, '1号厅 A排 06座', 'A-06'),
  (12, 1235, 190012, NULL, '1号厅 C排 15座', 'C-15'),
  (13, 1235, 190013, NULL, '2号厅 B排 02座', 'B-02'),
  (14, 1235, 190014, NULL, '1号厅 E排 09座', 'E-09'),
  (15, 1235, 190014, 1620, '主论坛 2排', '18'),
  (16, 1235, 190014, 1622, '颁奖典礼 8号桌', '4'),
  (21, 1197, 190021, NULL, '会议室 E排 05座', 'E-05')
ON CONFLICT DO NOTHING;

-- The seat map (getImage `seat`): a small image this Worker serves (public/seat-map.svg).
INSERT INTO expo_images (expo_id, image_name, url) VALUES
  (1128, 'seat', '/seat-map.svg'),
  (1235, 'seat', '/seat-map.svg'),
  (1197, 'seat', '/seat-map.svg')
ON CONFLICT DO NOTHING;
