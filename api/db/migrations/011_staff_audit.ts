/**
 * The audit log of staff actions (issue: the people who run the school): who did what to which
 * thing, when, and the fields before and after. Append-only: a trigger refuses every UPDATE and
 * DELETE, so not even a staff account with database access through the site can rewrite it.
 * The actor is kept by id and by the nickname at that moment (the account may change later).
 */
export const up = `
create table audit_log (
  id serial primary key,
  actor_id integer references users(id) on delete set null,
  actor_name text not null,
  actor_role text not null,
  action text not null,
  target_type text not null,
  target_id text,
  before jsonb,
  after jsonb,
  reason text,
  created_at timestamptz not null default now()
);
create index audit_log_created on audit_log (created_at desc, id desc);
create index audit_log_actor on audit_log (actor_id, created_at desc);
create index audit_log_target on audit_log (target_type, target_id);
create index audit_log_action on audit_log (action text_pattern_ops);

create function audit_log_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'audit_log is append-only';
end;
$$;
create trigger audit_log_no_update before update or delete on audit_log
  for each row execute function audit_log_append_only();
`;
