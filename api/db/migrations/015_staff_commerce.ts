/**
 * The staff side of commerce (decision 034): delivery of physical goods redeemed in the exchange
 * mall (待发货 → 已发货 → 已签收, carrier and tracking number as on orders), retiring coupon
 * templates, issuing coupons to learners once per batch, and the feedback inbox (state, the
 * operator's reply and who handled it).
 */
export const up = `
alter table exchange_redemptions add column delivery_state text
  check (delivery_state in ('awaiting_shipment', 'shipped', 'delivered'));
alter table exchange_redemptions add column carrier text;
alter table exchange_redemptions add column tracking_no text;
alter table exchange_redemptions add column shipped_at timestamptz;
alter table exchange_redemptions add column delivered_at timestamptz;
create index exchange_redemptions_delivery on exchange_redemptions (delivery_state, created_at)
  where delivery_state is not null;
-- Physical goods redeemed before delivery was tracked wait to be shipped.
update exchange_redemptions r set delivery_state = 'awaiting_shipment'
  from exchange_items i
  where i.id = r.item_id and i.kind in ('commodity', 'book') and r.state = 'completed';

alter table coupon_templates add column retired_at timestamptz;
alter table coupons add column issue_key text;
create unique index coupons_issued_once on coupons (template_id, user_id, issue_key) where issue_key is not null;

alter table feedback add column state text not null default 'open' check (state in ('open', 'handled'));
alter table feedback add column reply text;
alter table feedback add column replied_at timestamptz;
alter table feedback add column handled_by integer references users(id) on delete set null;
alter table feedback add column handled_at timestamptz;
create index feedback_inbox on feedback (state, created_at desc);
`;
