/**
 * Catalogue changes are told only when a row changed (docs/decisions/026-page-cache.md, addendum
 * of 2026-12-07). Migration 010's triggers ran once per statement, so a statement that changed
 * nothing notified too: the live state job's five guarded updates every 30 s emptied every node's
 * page cache and catalogue micro-cache twice a minute, whatever happened. Each of those tables now
 * has a row trigger for inserts, updates and deletes (PostgreSQL folds the same notification sent
 * many times in one transaction into one, at commit) and a statement trigger for TRUNCATE, which
 * has no rows to fire for.
 *
 * The notification names the schema too (`<schema>.<table>`): NOTIFY is per database, so sites or
 * test runs kept in separate schemas of one database no longer empty each other's caches.
 *
 * Two tables are written far more often than anything public on them changes, so only the
 * columns public pages show count as a change there:
 * - `users`: nickname, avatar, role and status (the wall's and groups' names, teachers); not the
 *   playback speed that every progress report may set, nor sign-in details;
 * - `enrolments`: a new or removed enrolment (the counts); not the last lesson and time that every
 *   progress report of an enrolled learner writes.
 *
 * The tables are the ones migration 010 gave a trigger in this schema, found by the trigger's name.
 */
export const up = `
create or replace function notify_catalogue_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('catalogue_changed', tg_table_schema || '.' || tg_table_name);
  return null;
end
$$;

do $$
declare
  t record;
begin
  for t in
    select c.relname as name
    from pg_trigger g
    join pg_class c on c.oid = g.tgrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and g.tgname = c.relname || '_catalogue_changed'
  loop
    execute format('drop trigger %I on %I', t.name || '_catalogue_changed', t.name);
    execute format(
      'create trigger %I after insert or delete or update%s on %I for each row execute function notify_catalogue_changed()',
      t.name || '_catalogue_rows',
      case t.name
        when 'users' then ' of nickname, avatar_url, role, status'
        when 'enrolments' then ' of user_id, course_id'
        else ''
      end,
      t.name);
    execute format(
      'create trigger %I after truncate on %I for each statement execute function notify_catalogue_changed()',
      t.name || '_catalogue_truncated', t.name);
  end loop;
end
$$;
`;
