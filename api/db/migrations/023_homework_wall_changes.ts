/**
 * The homework wall and its share pages show a reviewed attempt's comment and its first photo, so
 * the page cache (decision 026) must hear when those change, as it hears about the catalogue
 * tables of migrations 010 and 019. tests/integration/page-tables.test.ts found these two reads
 * without a trigger. An attempt tells only of the columns a public page shows (a teacher claiming
 * or holding an attempt changes nothing anyone else sees); a photo tells of every change.
 */
export const up = `
create trigger homework_attempts_catalogue_rows
  after insert or delete or update of submission_id, state, comment on homework_attempts
  for each row execute function notify_catalogue_changed();
create trigger homework_attempts_catalogue_truncated
  after truncate on homework_attempts for each statement execute function notify_catalogue_changed();
create trigger homework_photos_catalogue_rows
  after insert or delete or update on homework_photos for each row execute function notify_catalogue_changed();
create trigger homework_photos_catalogue_truncated
  after truncate on homework_photos for each statement execute function notify_catalogue_changed();
`;
