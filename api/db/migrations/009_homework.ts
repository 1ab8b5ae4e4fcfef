/**
 * Homework (DESIGN §4): tasks on lessons, the teacher accounts that teach each course, a
 * learner's submission per task with its attempts (at most three), the photos handed in, and the
 * teachers' saved phrases.
 *
 * - Photos keep their bytes in the database (display and thumbnail, re-encoded, no metadata):
 *   they are private, every read checks who asks, and web nodes share nothing but PostgreSQL
 *   (docs/decisions/024-homework.md). Ids are 128-bit random and never sequential.
 * - A claim is the holder and its expiry on the attempt; claiming is one guarded update.
 * - The submission carries its latest state and level, so lists and the wall read one row.
 */
export const up = `
create table course_teachers (
  course_id integer not null references courses(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (course_id, user_id)
);
create index course_teachers_user on course_teachers (user_id);
-- The teacher profiles already linked to an account teach their own courses.
insert into course_teachers (course_id, user_id)
  select c.id, t.user_id from courses c join teachers t on t.id = c.teacher_id where t.user_id is not null;

create table homework_tasks (
  id serial primary key,
  course_id integer not null references courses(id) on delete cascade,
  lesson_id integer not null unique references lessons(id) on delete cascade,
  title text not null,
  instructions text not null default '',
  characters text not null default '',
  script text not null check (script in ('kai', 'xing', 'li', 'zhuan', 'cao', 'yingbi')),
  max_photos integer not null default 9 check (max_photos between 1 and 9),
  created_at timestamptz not null default now()
);
create index homework_tasks_course on homework_tasks (course_id);

create table homework_submissions (
  id serial primary key,
  public_id text not null unique,
  share_id text not null unique,
  task_id integer not null references homework_tasks(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  state text not null default 'waiting' check (state in ('waiting', 'reviewed', 'returned')),
  level text check (level in ('excellent', 'good', 'fair', 'weak')),
  attempts integer not null default 0,
  show_on_wall boolean not null default false,
  -- When the work was rated excellent (the wall's order).
  excellent_at timestamptz,
  hidden_at timestamptz,
  hidden_by integer references users(id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (task_id, user_id)
);
create index homework_submissions_user on homework_submissions (user_id, updated_at desc, id desc);
create index homework_submissions_wall on homework_submissions (excellent_at desc, id desc)
  where show_on_wall and level = 'excellent' and hidden_at is null;

create table homework_attempts (
  id serial primary key,
  public_id text not null unique,
  submission_id integer not null references homework_submissions(id) on delete cascade,
  number integer not null check (number between 1 and 3),
  state text not null default 'waiting' check (state in ('waiting', 'reviewed', 'returned')),
  note text not null default '',
  submitted_at timestamptz not null default now(),
  claimed_by integer references users(id),
  claim_until timestamptz,
  -- An operator's reassignment: only this teacher may claim it.
  assigned_to integer references users(id),
  level text check (level in ('excellent', 'good', 'fair', 'weak')),
  comment text not null default '',
  return_reason text,
  drawings jsonb not null default '[]',
  reviewed_by integer references users(id),
  reviewed_at timestamptz,
  unique (submission_id, number),
  check (state = 'waiting' or reviewed_at is not null)
);
create index homework_attempts_waiting on homework_attempts (submitted_at, id) where state = 'waiting';
create index homework_attempts_reviewer on homework_attempts (reviewed_by, reviewed_at desc) where reviewed_by is not null;

create table homework_photos (
  id text primary key,
  user_id integer not null references users(id) on delete cascade,
  task_id integer not null references homework_tasks(id) on delete cascade,
  attempt_id integer references homework_attempts(id) on delete cascade,
  position integer not null default 0,
  width integer not null,
  height integer not null,
  thumb_width integer not null,
  thumb_height integer not null,
  display_bytes bytea not null,
  thumb_bytes bytea not null,
  created_at timestamptz not null default now()
);
create index homework_photos_attempt on homework_photos (attempt_id, position) where attempt_id is not null;
create index homework_photos_unattached on homework_photos (user_id, task_id) where attempt_id is null;

create table homework_phrases (
  user_id integer primary key references users(id) on delete cascade,
  phrases jsonb not null default '[]',
  updated_at timestamptz not null default now()
);
`;
