/**
 * Periodic jobs run once per period across all nodes: each run claims its period with a row
 * (the primary key lets one node win), then records how it ended. Rows older than a week are
 * deleted by the jobs themselves.
 */
export const up = `
create table job_runs (
  job text not null,
  period_start timestamptz not null,
  node text not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  ok boolean,
  error text,
  primary key (job, period_start)
);
`;
