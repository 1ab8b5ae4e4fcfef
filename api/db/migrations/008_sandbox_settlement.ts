/**
 * When the site took a sandbox approval into account (credited, refunded, or set aside because it
 * could not be credited), so the reconciler finds approvals whose notification was lost — a crash
 * between approve and notify — and only those. Approvals already credited count as settled.
 */
export const up = `
alter table payment_sandbox add column settled_at timestamptz;
update payment_sandbox set settled_at = coalesce(decided_at, created_at)
  where state = 'approved'
    and exists (select 1 from payments p where p.provider = 'sandbox' and p.provider_txn_id = payment_sandbox.txn_id);
create index payment_sandbox_unsettled on payment_sandbox (decided_at) where state = 'approved' and settled_at is null;
`;
