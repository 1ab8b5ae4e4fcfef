/**
 * Logins waiting for a new browser to be confirmed (device protection): referenced by an
 * httpOnly cookie, stored only as its SHA-256, valid 10 minutes, used once.
 */
export const up = `
create table pending_logins (
  id_hash text primary key,
  user_id integer not null references users(id) on delete cascade,
  device_key_hash text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index pending_logins_user on pending_logins (user_id) where consumed_at is null;
`;
