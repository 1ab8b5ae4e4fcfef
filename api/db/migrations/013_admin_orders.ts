/**
 * The operators' order desk and dashboard read every learner's orders newest first, today's
 * payments, and the refunds that wait (returns to review, refunds in progress or refused).
 */
export const up = `
create index orders_created on orders (created_at desc, id desc);
create index orders_paid_at on orders (paid_at) where paid_at is not null;
create index refunds_open on refunds (state, created_at) where state in ('requested', 'processing', 'failed');
`;
