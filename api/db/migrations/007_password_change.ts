/**
 * Accounts whose password must be changed before anything else: the first operator of a real
 * deployment gets a one-time password from `npm run user:create` and sets his own at first login.
 */
export const up = `
alter table users add column password_change_required boolean not null default false;
`;
