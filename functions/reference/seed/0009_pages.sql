-- Articles and a channel of demo expo 1308 (SEED.md "Articles and channels"). Idempotent like
-- every seed file. Article 9005's url is a javascript: address (the page must not link it),
-- 9006 has no url and no cover; there are 23 articles, so the list has three pages of 10.
INSERT INTO articles (id, expo_id, title, summary, cover_img, publish_time, url) VALUES
  (9001, 1308, '国际能源展开幕 IEAE opens its doors', '三天展期，九个展馆，四百家展商。Three days, nine halls, four hundred exhibitors.', '/logo.jpg', '2026-11-20 09:00:00', 'https://expo.example/1308/news/9001'),
  (9002, 1308, '观众预登记指南 How to pre-register', '提前登记，现场凭二维码快速入场。Register ahead and enter with your QR code.', '/logo.jpg', '2026-11-18 10:00:00', 'https://expo.example/1308/news/9002'),
  (9003, 1308, '交通与住宿 Getting there', '地铁二号线直达。Metro line 2 to the venue.', '', '2026-11-15 08:30:00', 'http://expo.example/1308/news/9003'),
  (9004, 1308, '新品发布会日程 Launch sessions', 'B 馆舞台每日两场。Two sessions a day on the Hall B stage.', '/logo.jpg', '2026-11-12 14:00:00', 'https://expo.example/1308/news/9004'),
  (9005, 1308, '展商名录 Exhibitor list', '名录将于开幕前一周公布。Published a week before the opening.', '/logo.jpg', '2026-11-10 09:00:00', 'javascript:alert(1)'),
  (9006, 1308, '志愿者招募 Volunteers wanted', '欢迎在校学生报名。Students are welcome to apply.', '', '2026-11-08 09:00:00', ''),
  (9007, 1308, '论坛议程 Forum agenda', '能源转型主论坛。The main forum on the energy transition.', '', '2026-11-06 09:00:00', 'https://expo.example/1308/news/9007'),
  (9008, 1308, '媒体注册 Media accreditation', '媒体请使用媒体通道登记。Media register through the media channel.', '', '2026-11-04 09:00:00', 'https://expo.example/1308/news/9008'),
  (9009, 1308, '餐饮服务 Food and drink', '各馆设有餐饮区。Every hall has a food court.', '', '2026-11-02 09:00:00', 'https://expo.example/1308/news/9009'),
  (9010, 1308, '安全须知 Safety notes', '请随身携带证件。Carry your ID at all times.', '', '2026-10-30 09:00:00', 'https://expo.example/1308/news/9010'),
  (9011, 1308, '展馆地图 Hall map', '下载展馆地图。Download the hall map.', '', '2026-10-28 09:00:00', 'https://expo.example/1308/news/9011'),
  (9012, 1308, '买家对接会 Buyer meetings', '预约一对一洽谈。Book a one-to-one meeting.', '', '2026-10-26 09:00:00', 'https://expo.example/1308/news/9012'),
  (9013, 1308, '往届回顾 Last year in numbers', '六万名专业观众。Sixty thousand trade visitors.', '', '2026-10-24 09:00:00', 'https://expo.example/1308/news/9013'),
  (9014, 1308, '参展报名截止 Exhibitor deadline', '展位预订截止日期。The last day to book a stand.', '', '2026-10-22 09:00:00', 'https://expo.example/1308/news/9014'),
  (9015, 1308, '同期活动 Side events', '技术研讨会与参观活动。Seminars and site visits.', '', '2026-10-20 09:00:00', 'https://expo.example/1308/news/9015'),
  (9016, 1308, '证件领取 Collecting your badge', '凭二维码在入口领取。Collect it at the entrance with your QR code.', '', '2026-10-18 09:00:00', 'https://expo.example/1308/news/9016'),
  (9017, 1308, '无障碍设施 Accessibility', '各入口均设无障碍通道。Step-free access at every entrance.', '', '2026-10-16 09:00:00', 'https://expo.example/1308/news/9017'),
  (9018, 1308, '停车信息 Parking', '停车场 P2 开放。Car park P2 is open.', '', '2026-10-14 09:00:00', 'https://expo.example/1308/news/9018'),
  (9019, 1308, '合作伙伴 Partners', '感谢各合作单位。Thanks to our partners.', '', '2026-10-12 09:00:00', 'https://expo.example/1308/news/9019'),
  (9020, 1308, '展会宣传片 Expo video', '观看宣传片。Watch the expo video.', '', '2026-10-10 09:00:00', 'https://expo.example/1308/news/9020'),
  (9021, 1308, '常见问题 FAQ', '预登记常见问题解答。Answers about pre-registration.', '', '2026-10-08 09:00:00', 'https://expo.example/1308/news/9021'),
  (9022, 1308, '联系我们 Contact us', '组委会联系方式。How to reach the organisers.', '', '2026-10-06 09:00:00', 'https://expo.example/1308/news/9022'),
  (9023, 1308, '展会日期公布 Dates announced', '展会将于十二月举行。The expo takes place in December.', '', '2026-10-01 09:00:00', 'https://expo.example/1308/news/9023')
ON CONFLICT DO NOTHING;

-- Channel 7001: the visitor url 21308, two images (one on a scheme that is not shown).
INSERT INTO channels (id, expo_id, urls_id, channel_name, head_img_url) VALUES
  (7001, 1308, 21308, '合作媒体通道 Media partner channel', '/logo.jpg,javascript:alert(1),/logo.jpg')
ON CONFLICT DO NOTHING;
