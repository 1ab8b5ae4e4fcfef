/** Accounts: users, sessions, devices, one-time codes, rate limits, QR tickets, identities, notices. */
export const up = `
create table users (
  id serial primary key,
  phone text unique,
  email text unique,
  password_hash text,
  nickname text not null default '',
  avatar_url text,
  gender text check (gender in ('male', 'female')),
  region text,
  intro text,
  role text not null default 'learner' check (role in ('learner', 'teacher', 'operator')),
  status text not null default 'active' check (status in ('active', 'disabled', 'deleting', 'deleted')),
  device_protection boolean not null default false,
  info_completed_at timestamptz,
  info_skipped_at timestamptz,
  deletion_requested_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (email is null or email = lower(email))
);

create table devices (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  device_key_hash text not null,
  name text not null,
  trusted_at timestamptz,
  first_seen_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  unique (user_id, device_key_hash)
);

create table sessions (
  id_hash text primary key,
  user_id integer not null references users(id) on delete cascade,
  device_id integer references devices(id) on delete set null,
  user_agent text not null default '',
  ip text not null default '',
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_user on sessions (user_id) where revoked_at is null;

create table otp_challenges (
  id text primary key,
  purpose text not null,
  channel text not null check (channel in ('sms', 'email')),
  target text not null,
  code_hash text not null,
  attempts integer not null default 0,
  user_id integer references users(id) on delete cascade,
  ip text not null default '',
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index otp_challenges_target on otp_challenges (channel, target, purpose, created_at desc);

create table rate_limits (
  key text not null,
  window_start timestamptz not null,
  count integer not null default 0,
  primary key (key, window_start)
);

create table qr_tickets (
  id text primary key,
  browser_hash text not null,
  status text not null default 'pending'
    check (status in ('pending', 'scanned', 'confirmed', 'cancelled', 'consumed')),
  requester_ua text not null default '',
  requester_ip text not null default '',
  user_id integer references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);

create table identities (
  provider text not null,
  provider_uid text not null,
  user_id integer not null references users(id) on delete cascade,
  nickname text,
  created_at timestamptz not null default now(),
  primary key (provider, provider_uid),
  unique (user_id, provider)
);

create table notifications (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  kind text not null,
  title text not null,
  body text not null default '',
  created_at timestamptz not null default now(),
  read_at timestamptz
);
create index notifications_user on notifications (user_id, created_at desc);

create table feedback (
  id serial primary key,
  user_id integer references users(id) on delete set null,
  category text not null,
  content text not null,
  contact text,
  created_at timestamptz not null default now()
);
`;
