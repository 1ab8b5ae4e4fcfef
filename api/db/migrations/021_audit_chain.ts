/**
 * The audit log becomes a hash chain (docs/decisions/074-staff-sessions-and-a-hash-chained-audit-log.md):
 * each row keeps the hash of the row before it (`prev_hash`) and its own `hash`, the SHA-256 of
 * `prev_hash` followed by a canonical text of its fields (audit_log_row_hash). The first row
 * chains from 64 zeros. Changing a field, deleting a row or cutting off the newest rows breaks
 * the chain at that place, and `npm run audit:verify` or the console's audit page names it.
 *
 * One row of `audit_chain` holds the newest id and hash. Every insert locks it (FOR UPDATE, held
 * to the end of the inserting transaction), takes the next id from it and moves it on, so ids are
 * gapless and follow commit order however many staff act at once. The serial's sequence goes:
 * the chain hands out the ids.
 *
 * Existing rows are chained in id order; the append-only trigger is off only for that.
 */
export const up = `
alter table audit_log add column prev_hash text, add column hash text;

create table audit_chain (
  id smallint primary key default 1 check (id = 1),
  last_id integer not null,
  hash text not null
);

-- The canonical text: a JSON array of the fields in a fixed order, the time in UTC to the
-- microsecond. A column added to audit_log later is covered only once it is added here.
create function audit_log_row_hash(r audit_log) returns text language sql stable as $$
  select encode(sha256(convert_to(r.prev_hash || jsonb_build_array(
    r.id,
    to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    r.actor_id,
    r.actor_name,
    r.actor_role,
    r.action,
    r.target_type,
    r.target_id,
    r.before,
    r.after,
    r.reason
  )::text, 'UTF8')), 'hex')
$$;

alter table audit_log disable trigger audit_log_no_update;
do $$
declare
  r audit_log;
  prev text := repeat('0', 64);
  last integer := 0;
begin
  for r in select * from audit_log order by id loop
    r.prev_hash := prev;
    prev := audit_log_row_hash(r);
    update audit_log set prev_hash = r.prev_hash, hash = prev where id = r.id;
    last := r.id;
  end loop;
  insert into audit_chain (last_id, hash) values (last, prev);
end
$$;
alter table audit_log enable trigger audit_log_no_update;

alter table audit_log
  alter column prev_hash set not null,
  alter column hash set not null,
  alter column id drop default;
drop sequence audit_log_id_seq;

create function audit_log_chain() returns trigger language plpgsql as $$
declare
  head audit_chain;
begin
  -- One append at a time until its transaction ends: the next one sees this row as the head.
  select * into strict head from audit_chain for update;
  new.id := head.last_id + 1;
  new.prev_hash := head.hash;
  new.hash := audit_log_row_hash(new);
  update audit_chain set last_id = new.id, hash = new.hash;
  return new;
end
$$;
create trigger audit_log_chain before insert on audit_log
  for each row execute function audit_log_chain();
`;
