/**
 * The learning catalogue (DESIGN §4 courses and live): teachers, courses with chapters and
 * lessons, enrolments and lesson progress, live sessions with bookings, attendance and chat,
 * books, stationery with SKUs, banners, activities, public course items and trial sign-ups.
 *
 * Money is integer cents (分). Playback speed is stored as hundredths (125 = 1.25×) so it stays an
 * integer on every driver.
 */
export const up = `
create table teachers (
  id serial primary key,
  user_id integer unique references users(id) on delete set null,
  name text not null,
  title text not null default '',
  bio text not null default '',
  specialty text not null default '',
  portrait_char text not null,
  position integer not null default 0
);

create table courses (
  id serial primary key,
  title text not null,
  subtitle text not null default '',
  category text not null check (category in ('kaishu','xingshu','lishu','zhuanshu','caoshu','yingbi','xiezuo','guoxue')),
  kind text not null check (kind in ('recorded','live','camp')),
  level text not null check (level in ('beginner','intermediate','advanced')),
  teacher_id integer not null references teachers(id),
  price_cents integer not null check (price_cents >= 0),
  original_price_cents integer not null check (original_price_cents >= price_cents),
  is_public boolean not null default false,
  cover_char text not null,
  summary text not null default '',
  introduction text not null default '',
  outcomes jsonb not null default '[]',
  learners_count integer not null default 0 check (learners_count >= 0),
  popularity integer not null default 0,
  camp_starts_on date,
  status text not null default 'published' check (status in ('draft','published','archived')),
  published_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index courses_listing on courses (status, category, kind, level);
create index courses_published on courses (published_at desc);

create table chapters (
  id serial primary key,
  course_id integer not null references courses(id) on delete cascade,
  position integer not null,
  title text not null,
  unique (course_id, position)
);

create table lessons (
  id serial primary key,
  course_id integer not null references courses(id) on delete cascade,
  chapter_id integer not null references chapters(id) on delete cascade,
  position integer not null,
  title text not null,
  summary text not null default '',
  video_key text not null,
  duration_seconds integer not null check (duration_seconds > 0),
  is_trial boolean not null default false,
  unlock_day integer check (unlock_day is null or unlock_day >= 1),
  unique (chapter_id, position)
);
create index lessons_course on lessons (course_id);

create table enrolments (
  user_id integer not null references users(id) on delete cascade,
  course_id integer not null references courses(id) on delete cascade,
  source text not null check (source in ('free','order','gift','group','exchange','admin')),
  created_at timestamptz not null default now(),
  last_lesson_id integer references lessons(id) on delete set null,
  last_learned_at timestamptz,
  primary key (user_id, course_id)
);
create index enrolments_course on enrolments (course_id);

create table lesson_progress (
  user_id integer not null references users(id) on delete cascade,
  lesson_id integer not null references lessons(id) on delete cascade,
  position_seconds integer not null default 0 check (position_seconds >= 0),
  watched_seconds integer not null default 0 check (watched_seconds >= 0),
  speed_x100 integer not null default 100 check (speed_x100 between 75 and 200),
  completed_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (user_id, lesson_id)
);

alter table users add column playback_speed_x100 integer not null default 100
  check (playback_speed_x100 between 75 and 200);

create table live_sessions (
  id serial primary key,
  course_id integer references courses(id) on delete set null,
  teacher_id integer not null references teachers(id),
  title text not null,
  summary text not null default '',
  cover_char text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  state text not null default 'scheduled'
    check (state in ('scheduled','live','ended','processing','replay','cancelled')),
  stream_key text not null,
  recording_video_key text,
  chapter_marks jsonb not null default '[]',
  is_open boolean not null default false,
  updated_at timestamptz not null default now(),
  check (ends_at > starts_at)
);
create index live_sessions_time on live_sessions (starts_at);

create table live_bookings (
  user_id integer not null references users(id) on delete cascade,
  live_id integer not null references live_sessions(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, live_id)
);

create table live_attendance (
  user_id integer not null references users(id) on delete cascade,
  live_id integer not null references live_sessions(id) on delete cascade,
  first_joined_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  seconds integer not null default 0 check (seconds >= 0),
  checked_in_at timestamptz,
  counted_at timestamptz,
  primary key (user_id, live_id)
);

create table live_chat_messages (
  id bigserial primary key,
  live_id integer not null references live_sessions(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  body text not null check (char_length(body) between 1 and 200),
  created_at timestamptz not null default now()
);
create index live_chat_room on live_chat_messages (live_id, id desc);

create table replay_progress (
  user_id integer not null references users(id) on delete cascade,
  live_id integer not null references live_sessions(id) on delete cascade,
  position_seconds integer not null default 0 check (position_seconds >= 0),
  watched_seconds integer not null default 0 check (watched_seconds >= 0),
  completed_at timestamptz,
  updated_at timestamptz not null default now(),
  primary key (user_id, live_id)
);

create table books (
  id serial primary key,
  title text not null,
  author text not null,
  publisher text not null,
  isbn text not null unique,
  tab text not null,
  price_cents integer not null check (price_cents >= 0),
  original_price_cents integer not null check (original_price_cents >= price_cents),
  stock integer not null default 0 check (stock >= 0),
  cover_char text not null,
  summary text not null default '',
  pages integer,
  published_on date,
  status text not null default 'published' check (status in ('draft','published','archived')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index books_tab on books (tab);

create table commodities (
  id serial primary key,
  title text not null,
  category text not null,
  summary text not null default '',
  description text not null default '',
  cover_char text not null,
  gallery jsonb not null default '[]',
  sales integer not null default 0,
  status text not null default 'published' check (status in ('draft','published','archived')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index commodities_category on commodities (category);

create table commodity_skus (
  id serial primary key,
  commodity_id integer not null references commodities(id) on delete cascade,
  name text not null,
  price_cents integer not null check (price_cents >= 0),
  original_price_cents integer not null check (original_price_cents >= price_cents),
  stock integer not null default 0 check (stock >= 0),
  position integer not null default 0,
  unique (commodity_id, name)
);

create table banners (
  id serial primary key,
  title text not null,
  subtitle text not null default '',
  link text not null,
  glyph text not null,
  tone text not null default 'ink',
  position integer not null default 0,
  active boolean not null default true
);

create table activities (
  id serial primary key,
  token text not null unique,
  kind text not null check (kind in ('bmyx','daycourse','reading','travel_note','general')),
  title text not null,
  summary text not null default '',
  body jsonb not null default '[]',
  cover_char text not null,
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  course_id integer references courses(id) on delete set null
);

create table public_course_items (
  id serial primary key,
  title text not null,
  summary text not null default '',
  teacher_id integer not null references teachers(id),
  video_key text not null,
  duration_seconds integer not null check (duration_seconds > 0),
  cover_char text not null,
  position integer not null default 0,
  published_at timestamptz not null default now()
);

create table trial_signups (
  id serial primary key,
  user_id integer references users(id) on delete set null,
  name text not null,
  phone text not null,
  category text not null,
  grade text not null default '',
  created_at timestamptz not null default now(),
  unique (phone, category)
);
`;
