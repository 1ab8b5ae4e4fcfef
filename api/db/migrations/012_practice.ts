/**
 * Practice (DESIGN §4): the practice diary, one entry per learner and China date; the photo of
 * an entry (bytes kept in the database like homework photos: private, re-encoded, no metadata);
 * and each learner's private calendar feed token (decision 031).
 *
 * - `minutes` is what the learner entered; `traced_seconds` is what tracing at /calmness added.
 * - `made_up`: written the next day for a missed day (editable only the day it was made up).
 */
export const up = `
create table practice_photos (
  id text primary key,
  user_id integer not null references users(id) on delete cascade,
  width integer not null,
  height integer not null,
  thumb_width integer not null,
  thumb_height integer not null,
  display_bytes bytea not null,
  thumb_bytes bytea not null,
  created_at timestamptz not null default now()
);
create index practice_photos_user on practice_photos (user_id);

create table practice_diary (
  user_id integer not null references users(id) on delete cascade,
  day date not null,
  minutes integer not null default 0 check (minutes between 0 and 1440),
  traced_seconds integer not null default 0 check (traced_seconds >= 0),
  characters text not null default '',
  traced_characters text not null default '',
  note text not null default '',
  photo_id text references practice_photos(id) on delete set null,
  made_up boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (user_id, day)
);

create table calendar_feeds (
  user_id integer primary key references users(id) on delete cascade,
  token text not null unique,
  created_at timestamptz not null default now()
);
`;
