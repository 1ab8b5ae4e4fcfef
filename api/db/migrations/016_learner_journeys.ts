/**
 * What a learner does that had nowhere to be kept: minutes studied per China-time day (the
 * overview's chart of study time per week, added to by each progress report), and an
 * activity's sign-ups (with their state) and daily check-ins.
 */
export const up = `
create table study_days (
  user_id integer not null references users(id) on delete cascade,
  day date not null,
  seconds integer not null default 0 check (seconds >= 0),
  primary key (user_id, day)
);

create table activity_signups (
  activity_id integer not null references activities(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  state text not null default 'signed_up' check (state in ('signed_up', 'cancelled')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (activity_id, user_id)
);
create index activity_signups_user on activity_signups (user_id);

create table activity_check_ins (
  activity_id integer not null references activities(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  day date not null,
  note text not null default '',
  created_at timestamptz not null default now(),
  primary key (activity_id, user_id, day)
);
`;
