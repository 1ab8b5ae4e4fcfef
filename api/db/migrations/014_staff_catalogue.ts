/**
 * What the staff side keeps beside the catalogue (docs/decisions/033-staff-catalogue-and-live.md):
 * uploaded cover images of courses, books and stationery (a public path; the generated glyph cover
 * stays the fallback), a lesson video by address, the history of stock changes with their reasons,
 * and live-room moderation: a pinned message, hidden chat messages and timed mutes.
 *
 * Public pages read the new columns of courses, lessons, books, commodities and live_sessions,
 * whose catalogue triggers (migration 010) already fire on every write. `live_chat_messages` and
 * `live_mutes` feed only the signed-in room stream and `stock_changes` only the staff pages, so
 * they need no trigger.
 */
export const up = `
alter table courses add column cover_image text;
alter table books add column cover_image text;
alter table commodities add column cover_image text;
alter table lessons add column video_url text;

create table stock_changes (
  id bigserial primary key,
  item_type text not null check (item_type in ('book', 'sku')),
  item_id integer not null,
  delta integer not null check (delta <> 0),
  stock_after integer not null check (stock_after >= 0),
  reason text not null check (char_length(reason) between 1 and 200),
  actor_id integer references users(id) on delete set null,
  created_at timestamptz not null default now()
);
create index stock_changes_item on stock_changes (item_type, item_id, id desc);

alter table live_sessions add column pinned_message text
  check (pinned_message is null or char_length(pinned_message) between 1 and 200);
alter table live_chat_messages add column hidden_at timestamptz;
alter table live_chat_messages add column hidden_by integer references users(id) on delete set null;

create table live_mutes (
  live_id integer not null references live_sessions(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  until timestamptz not null,
  muted_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (live_id, user_id)
);
`;
