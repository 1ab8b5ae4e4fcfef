/**
 * Catalogue changes, told to every web node (docs/decisions/026-page-cache.md): any write to a
 * table that a public page reads sends `pg_notify('catalogue_changed', <table>)`, once per
 * statement and delivered at commit. Nodes drop the anonymous pages (and the short memory of
 * catalogue answers) they keep. A trigger catches every write path, including ones added later
 * and hand-run SQL; personal tables (sessions, progress, orders, wallets…) are left out.
 */
const TABLES = [
  "users",
  "teachers",
  "courses",
  "course_teachers",
  "chapters",
  "lessons",
  "enrolments",
  "live_sessions",
  "live_bookings",
  "books",
  "commodities",
  "commodity_skus",
  "banners",
  "activities",
  "public_course_items",
  "coupon_templates",
  "group_campaigns",
  "groups",
  "group_members",
  "exchange_items",
  "homework_tasks",
  "homework_submissions",
];

export const up = `
create function notify_catalogue_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify('catalogue_changed', tg_table_name);
  return null;
end
$$;
${TABLES.map(
  (t) =>
    `create trigger ${t}_catalogue_changed after insert or update or delete or truncate on ${t} for each statement execute function notify_catalogue_changed();`,
).join("\n")}
`;
