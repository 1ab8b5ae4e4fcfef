/**
 * Commerce (DESIGN §4 orders, group buy, currencies, packs, gifts): addresses, orders with their
 * snapshots, payments and refunds, coupons, gifts, group buying, the two currencies' wallets and
 * append-only ledgers, the exchange mall, and stored responses for idempotent requests.
 *
 * Money is integer cents (分); coin and bishan amounts are whole units. Every count that must not
 * go below zero has a CHECK, so a bug in code cannot overdraw it.
 */
export const up = `
create table addresses (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  recipient text not null,
  phone text not null,
  region text not null,
  detail text not null,
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
create index addresses_user on addresses (user_id);

create table coupon_templates (
  id serial primary key,
  title text not null,
  kind text not null check (kind in ('amount', 'percent')),
  amount_off_cents integer not null default 0 check (amount_off_cents >= 0),
  percent_off integer not null default 0 check (percent_off between 0 and 90),
  threshold_cents integer not null default 0 check (threshold_cents >= 0),
  scope text not null default 'all' check (scope in ('all', 'course', 'book', 'commodity')),
  scope_ref_id integer,
  valid_days integer check (valid_days is null or valid_days > 0),
  valid_until timestamptz,
  total_quantity integer check (total_quantity is null or total_quantity >= 0),
  claimed_count integer not null default 0 check (claimed_count >= 0),
  per_user_limit integer not null default 1 check (per_user_limit >= 1),
  claimable boolean not null default true,
  created_at timestamptz not null default now(),
  check (total_quantity is null or claimed_count <= total_quantity),
  check (valid_days is not null or valid_until is not null)
);

create table coupons (
  id serial primary key,
  template_id integer not null references coupon_templates(id),
  user_id integer not null references users(id) on delete cascade,
  source text not null default 'claim' check (source in ('claim', 'exchange', 'grant')),
  state text not null default 'available' check (state in ('available', 'locked', 'used', 'returned')),
  valid_from timestamptz not null default now(),
  valid_until timestamptz not null,
  order_id integer,
  used_at timestamptz,
  returned_at timestamptz,
  return_notice_seen_at timestamptz,
  claimed_at timestamptz not null default now()
);
create index coupons_user on coupons (user_id, state);

create table orders (
  id serial primary key,
  order_no text not null unique,
  user_id integer not null references users(id),
  purpose text not null default 'buy' check (purpose in ('buy', 'gift', 'group')),
  item_type text not null check (item_type in ('course', 'book', 'commodity')),
  item_id integer not null,
  sku_id integer,
  quantity integer not null default 1 check (quantity between 1 and 99),
  title text not null,
  sku_name text,
  unit_price_cents integer not null check (unit_price_cents >= 0),
  total_cents integer not null check (total_cents >= 0),
  coupon_id integer references coupons(id),
  coupon_discount_cents integer not null default 0 check (coupon_discount_cents >= 0),
  coins_used integer not null default 0 check (coins_used >= 0),
  coin_discount_cents integer not null default 0 check (coin_discount_cents >= 0),
  pay_cents integer not null check (pay_cents >= 0),
  physical boolean not null default false,
  address jsonb,
  state text not null default 'pending' check (state in
    ('pending', 'paid', 'awaiting_shipment', 'shipped', 'completed', 'cancelled', 'refunding', 'refunded', 'partially_refunded')),
  cancel_reason text,
  provider text,
  provider_txn_id text,
  group_id integer,
  expires_at timestamptz not null,
  paid_at timestamptz,
  shipped_at timestamptz,
  completed_at timestamptz,
  cancelled_at timestamptz,
  refunded_cents integer not null default 0 check (refunded_cents >= 0),
  stock_released_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (pay_cents = total_cents - coupon_discount_cents - coin_discount_cents),
  check (refunded_cents <= pay_cents)
);
create index orders_user on orders (user_id, created_at desc);
create index orders_open on orders (state, expires_at) where state = 'pending';
-- One unpaid order per learner and item: creating it again reuses the open one.
create unique index orders_one_pending on orders (user_id, purpose, item_type, item_id, coalesce(sku_id, 0), coalesce(group_id, 0))
  where state = 'pending';

create table payments (
  id serial primary key,
  order_id integer not null references orders(id),
  provider text not null,
  provider_txn_id text not null,
  amount_cents integer not null,
  currency text not null default 'CNY',
  outcome text not null check (outcome in ('credited', 'refunded_late', 'ignored')),
  received_at timestamptz not null default now(),
  unique (provider, provider_txn_id)
);

create table refunds (
  id serial primary key,
  order_id integer not null references orders(id),
  user_id integer not null references users(id),
  amount_cents integer not null check (amount_cents > 0),
  reason text not null,
  state text not null default 'processing' check (state in ('processing', 'succeeded', 'failed')),
  provider_refund_id text,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index refunds_order on refunds (order_id);

create table gifts (
  id serial primary key,
  order_id integer not null unique references orders(id),
  buyer_id integer not null references users(id),
  course_id integer not null references courses(id),
  code text not null unique,
  message text not null default '',
  state text not null default 'pending_payment' check (state in ('pending_payment', 'unclaimed', 'claimed', 'refunded')),
  claimed_by integer references users(id),
  claimed_at timestamptz,
  created_at timestamptz not null default now()
);

create table group_campaigns (
  id serial primary key,
  course_id integer not null references courses(id),
  group_size integer not null default 3 check (group_size between 2 and 10),
  group_price_cents integer not null check (group_price_cents > 0),
  valid_hours integer not null default 24 check (valid_hours between 1 and 72),
  starts_at timestamptz not null,
  ends_at timestamptz not null,
  active boolean not null default true
);

create table groups (
  id serial primary key,
  group_no text not null unique,
  campaign_id integer not null references group_campaigns(id),
  leader_id integer not null references users(id),
  group_size integer not null check (group_size between 2 and 10),
  state text not null default 'forming' check (state in ('forming', 'open', 'complete', 'failed', 'abandoned')),
  seats_taken integer not null default 0,
  paid_count integer not null default 0,
  expires_at timestamptz,
  completed_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz not null default now(),
  check (seats_taken between 0 and group_size),
  check (paid_count between 0 and seats_taken)
);
-- One open (or forming) group per leader and campaign.
create unique index groups_one_open_per_leader on groups (campaign_id, leader_id) where state in ('forming', 'open');

create table group_members (
  group_id integer not null references groups(id),
  user_id integer not null references users(id),
  order_id integer not null references orders(id),
  state text not null default 'held' check (state in ('held', 'paid', 'released', 'refunded')),
  held_until timestamptz not null,
  joined_at timestamptz not null default now(),
  primary key (group_id, user_id)
);

create table wallets (
  user_id integer not null references users(id) on delete cascade,
  currency text not null check (currency in ('coin', 'bishan')),
  balance integer not null default 0 check (balance >= 0),
  updated_at timestamptz not null default now(),
  primary key (user_id, currency)
);

create table wallet_entries (
  id bigserial primary key,
  user_id integer not null references users(id) on delete cascade,
  currency text not null check (currency in ('coin', 'bishan')),
  amount integer not null check (amount <> 0),
  balance_after integer not null check (balance_after >= 0),
  reason text not null,
  ref_type text,
  ref_id text,
  idempotency_key text not null,
  note text not null default '',
  created_at timestamptz not null default now(),
  unique (user_id, currency, reason, idempotency_key)
);
create index wallet_entries_user on wallet_entries (user_id, currency, id desc);

create table exchange_items (
  id serial primary key,
  title text not null,
  summary text not null default '',
  kind text not null check (kind in ('commodity', 'book', 'coupon', 'course')),
  ref_id integer not null,
  currency text not null check (currency in ('coin', 'bishan')),
  price integer not null check (price > 0),
  stock integer not null check (stock >= 0),
  per_user_limit integer not null default 1 check (per_user_limit >= 1),
  cover_char text not null,
  active boolean not null default true,
  position integer not null default 0
);

create table exchange_redemptions (
  id serial primary key,
  user_id integer not null references users(id),
  item_id integer not null references exchange_items(id),
  currency text not null,
  price integer not null,
  state text not null default 'pending' check (state in ('pending', 'completed', 'failed')),
  failure text,
  address jsonb,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index exchange_redemptions_user on exchange_redemptions (user_id, item_id);

create table idempotency_keys (
  user_id integer not null references users(id) on delete cascade,
  route text not null,
  key text not null,
  fingerprint text not null,
  status_code integer,
  response jsonb,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  primary key (user_id, route, key)
);
-- Shipping details, the learner's refund reason, and the hosted sandbox checkout's own record
-- (what a gateway's test mode keeps: which checkouts were approved, so the expiry job can ask it).
alter table orders add column carrier text;
alter table orders add column tracking_no text;
alter table orders add column refund_reason text;
create table payment_sandbox (
  id text primary key,
  order_no text not null,
  amount_cents integer not null check (amount_cents > 0),
  currency text not null default 'CNY',
  state text not null default 'open' check (state in ('open', 'approved', 'declined', 'failed')),
  txn_id text unique,
  created_at timestamptz not null default now(),
  decided_at timestamptz
);
create index payment_sandbox_order on payment_sandbox (order_no);
`;
