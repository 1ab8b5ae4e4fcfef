/**
 * Lesson videos uploaded by operators and transcoded to HLS in the background
 * (docs/decisions/043-video-transcoding.md). One row per upload: the worker of any node takes a
 * queued row (or a running one whose lease has expired) with a guarded update, renews its lease
 * while ffmpeg runs and records the progress; a lesson has at most one upload waiting or running.
 */
export const up = `
create table video_jobs (
  id serial primary key,
  lesson_id integer not null references lessons(id) on delete cascade,
  state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
  progress integer not null default 0 check (progress between 0 and 100),
  message text,
  attempts integer not null default 0 check (attempts >= 0),
  lease_owner text,
  lease_expires_at timestamptz,
  source_path text not null,
  output_dir text not null,
  duration_seconds double precision not null check (duration_seconds > 0),
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index video_jobs_lesson on video_jobs (lesson_id, id desc);
create index video_jobs_waiting on video_jobs (id) where state in ('queued', 'running');
create unique index video_jobs_one_open_per_lesson on video_jobs (lesson_id) where state in ('queued', 'running');
`;
