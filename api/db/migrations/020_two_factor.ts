/**
 * Two-factor login for staff (decision 072): an authenticator app's TOTP secret per account,
 * confirmed once a first code from the app matched, with the last time step accepted (a code is
 * never taken twice); ten recovery codes per account, stored only as scrypt hashes, each used
 * once. A session records when it last proved its password or a code (`stepped_up_at`): money
 * moves and account changes need that within 10 minutes. A pending login says what it waits
 * for: the new browser's confirmation (`device`) or the second factor (`two_factor`), and
 * whether it began with the password (the session it ends in then counts as stepped up).
 */
export const up = `
create table totp_factors (
  user_id integer primary key references users(id) on delete cascade,
  secret text not null,
  confirmed_at timestamptz,
  last_step integer,
  created_at timestamptz not null default now()
);

create table recovery_codes (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index recovery_codes_user on recovery_codes (user_id) where used_at is null;

alter table sessions add column stepped_up_at timestamptz;
alter table pending_logins add column purpose text not null default 'device';
alter table pending_logins add column stepped_up boolean not null default false;
`;
