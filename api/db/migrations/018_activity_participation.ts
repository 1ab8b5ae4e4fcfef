/**
 * Taking part in an activity: an optional cap on sign-ups with the count of current sign-ups
 * kept beside it (a guarded update holds it at or under the cap under concurrency), and the
 * lesson whose homework the activity's participants hand in. The demo activity that asks for
 * 临写作业 gets the first lesson of its course that has a homework task; the demo activities'
 * texts that promised actions the site did not offer are rewritten where still as first seeded.
 */
export const up = `
alter table activities
  add column capacity integer check (capacity is null or capacity > 0),
  add column signed_up_count integer not null default 0 check (signed_up_count >= 0),
  add column homework_lesson_id integer references lessons(id) on delete set null;
alter table activities
  add constraint activities_within_capacity check (capacity is null or signed_up_count <= capacity);

update activities a set signed_up_count = (
  select count(*) from activity_signups s where s.activity_id = a.id and s.state = 'signed_up'
);

update activities a set homework_lesson_id = (
  select t.lesson_id from homework_tasks t join lessons l on l.id = t.lesson_id
  where l.course_id = a.course_id order by l.position, l.id limit 1
)
where a.token = 'bmyx-autumn' and a.homework_lesson_id is null;

update activities set body = '[{"heading": "怎么参加", "text": "在本页报名，选择一本帖，每天临写至少二十分钟，临完在本页打卡。"}, {"heading": "打卡与日记", "text": "每次打卡的练习时长和临写的字记入当天的练字日记；每天第一次打卡按练字日记的规则得签到金币。"}, {"heading": "推荐字帖", "text": "九成宫醴泉铭、曹全碑、兰亭序、灵飞经，任选其一。"}]'::jsonb, summary = '四周临完一本帖：报名后每天打卡，练习时长和临写的字记入练字日记。'
where token = 'spring-2026' and body = '[{"heading": "怎么参加", "text": "选择一本帖，每天临写至少二十分钟，在练字日记里打卡并上传照片。"}, {"heading": "奖励", "text": "连续打卡七天得 100 金币，完成四周得 50 笔山，优秀作品登上作品墙。"}, {"heading": "推荐字帖", "text": "九成宫醴泉铭、曹全碑、兰亭序、灵飞经，任选其一。"}]'::jsonb;

update activities set body = '[{"heading": "研习内容", "text": "本季研习《兰亭序》《祭侄文稿》《寒食帖》三大行书。"}, {"heading": "形式", "text": "报名后在本页打开本期临写作业，对照范字临写、拍照提交，老师批改、评级并写评语。"}]'::jsonb, capacity = coalesce(capacity, 200)
where token = 'bmyx-autumn' and body = '[{"heading": "研习内容", "text": "本季研习《兰亭序》《祭侄文稿》《寒食帖》三大行书。"}, {"heading": "形式", "text": "周六晚直播读帖，周中提交临写作业，老师挑选典型作业点评。"}]'::jsonb;

update activities set body = '[{"heading": "每天学什么", "text": "周一到周五讲笔画与结构，周末讲一幅名作。"}, {"heading": "如何坚持", "text": "报名后每天学完一课在本页打卡，学习时长记入练字日记；每天第一次打卡得签到金币。"}]'::jsonb
where token = 'daycourse-2026' and body = '[{"heading": "每天学什么", "text": "周一到周五讲笔画与结构，周末讲一幅名作。"}, {"heading": "如何坚持", "text": "开启提醒，学完一课即可打卡，连续学习有金币奖励。"}]'::jsonb;

update activities set body = '[{"heading": "行程", "text": "第一天碑林博物馆，第二天大雁塔与书院门，第三天现场临写交流。"}, {"heading": "报名", "text": "在本页报名，限 30 人，报满即止；行程中每天可以在本页打卡，临写的字记入练字日记。"}]'::jsonb, capacity = coalesce(capacity, 30)
where token = 'travel-note-xian' and body = '[{"heading": "行程", "text": "第一天碑林博物馆，第二天大雁塔与书院门，第三天现场临写交流。"}, {"heading": "游记征集", "text": "活动结束后提交一篇游记与一幅临作，精选刊登。"}]'::jsonb;
`;
