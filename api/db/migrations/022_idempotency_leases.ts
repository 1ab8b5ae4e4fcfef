/**
 * Idempotency keys hold a lease (decision 071): the claim names the process that runs the request
 * and until when it holds the key. A retry takes over a key whose lease ran out (its holder died
 * or hung), so a crash no longer leaves the key "in flight" for ever. Finished keys and abandoned
 * claims are purged a day after they end, by age (the index below).
 */
export const up = `
alter table idempotency_keys add column lease_owner text;
alter table idempotency_keys add column lease_expires_at timestamptz;
-- Claims left by a crash before leases existed: free to be taken over at once.
update idempotency_keys set lease_expires_at = created_at where completed_at is null;
create index idempotency_keys_age on idempotency_keys ((coalesce(completed_at, lease_expires_at)));
`;
