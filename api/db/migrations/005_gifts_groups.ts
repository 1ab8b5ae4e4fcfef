/**
 * Gifts and group buying in full, and coins spent on orders.
 *
 * - Gifts: a claim window (30 days from payment), and the states a gift passes while its order
 *   is closed unpaid (cancelled) or being refunded (refunding: a claim cannot slip in meanwhile).
 * - Groups: members are found from their orders (index), orders from their group (index), and a
 *   member's seat is released when its order closes.
 * - Orders: when coins were put on the order (the ledger line's key), so a change returns them once.
 * - Refunds: how many pieces a partial refund of physical goods returns, and the review of returns
 *   of received goods.
 */
export const up = `
alter table gifts drop constraint gifts_state_check;
alter table gifts add constraint gifts_state_check
  check (state in ('pending_payment', 'unclaimed', 'claimed', 'refunding', 'refunded', 'cancelled'));
alter table gifts add column claim_until timestamptz;
alter table gifts add column refunded_at timestamptz;
create index gifts_buyer on gifts (buyer_id, created_at desc);

create index group_campaigns_course on group_campaigns (course_id) where active;
create index groups_campaign_open on groups (campaign_id, state, expires_at);
create index groups_expiring on groups (expires_at) where state in ('forming', 'open');
create unique index group_members_order on group_members (order_id);
create index orders_group on orders (group_id) where group_id is not null;

alter table orders add column coins_applied_key text;

-- Partial refunds of physical goods: how many pieces a refund returns (null: the whole order).
alter table refunds add column quantity integer check (quantity is null or quantity > 0);
-- Returns of goods the learner has received wait for an operator (requested → processing, or
-- rejected, or withdrawn by the learner); the order goes back to where it was unless approved.
alter table refunds drop constraint refunds_state_check;
alter table refunds add constraint refunds_state_check
  check (state in ('requested', 'processing', 'succeeded', 'failed', 'rejected', 'withdrawn'));
alter table refunds add column previous_state text;
alter table refunds add column review_note text;
alter table refunds add column reviewed_by integer references users(id);
alter table refunds add column reviewed_at timestamptz;
create index refunds_requested on refunds (created_at) where state = 'requested';
`;
