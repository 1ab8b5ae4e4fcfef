/**
 * Accounts made and changed from the command line (server/cli.ts): the first operator of a real
 * deployment, granting or revoking roles, and resetting the two-factor login of someone who lost
 * the phone. A new account gets a one-time password (random, printed once) and must set its own
 * at first login (users.password_change_required).
 */
import { randomInt } from "node:crypto";
import { z } from "zod";
import { emailSchema, phoneSchema } from "../../../shared/contracts/auth";
import type { Database } from "../../db/database";
import type { User } from "../../db/schema";
import { hashPassword } from "../auth/passwords";
import { recordAudit } from "../audit/record";
import { resetTwoFactor } from "../auth/two-factor";

export const ROLES = ["learner", "teacher", "operator"] as const;
export type Role = (typeof ROLES)[number];
/** Roles that can be granted; an operator also has every teacher permission (one role per account). */
export const GRANTABLE = ["teacher", "operator"] as const;
export type GrantableRole = (typeof GRANTABLE)[number];

export const accountAddressSchema = z
  .object({ phone: phoneSchema.optional(), email: emailSchema.optional() })
  .refine((a) => a.phone !== undefined || a.email !== undefined, "give --phone or --email (or both)");

export const createAccountSchema = z.object({
  role: z.enum(ROLES, "--role must be learner, teacher or operator"),
  phone: phoneSchema.optional(),
  email: emailSchema.optional(),
  nickname: z.string().trim().min(1).max(20, "--nickname: at most 20 characters").optional(),
});

/** Letters and digits without look-alikes (0/O, 1/l/I): easy to type from a terminal. */
const ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** 20 characters (≈ 116 bits), at least one letter and one digit (the password rules). */
export function oneTimePassword(): string {
  for (;;) {
    let out = "";
    for (let i = 0; i < 20; i++) out += ALPHABET[randomInt(ALPHABET.length)];
    if (/[A-Za-z]/.test(out) && /\d/.test(out)) return out;
  }
}

export class AccountCommandError extends Error {}

async function findByAddress(database: Database, address: { phone?: string; email?: string }) {
  let q = database.db.selectFrom("users").selectAll();
  q = q.where((eb) =>
    eb.or([
      ...(address.phone ? [eb("phone", "=", address.phone)] : []),
      ...(address.email ? [eb("email", "=", address.email)] : []),
    ]),
  );
  return q.execute();
}

export async function createAccount(
  database: Database,
  input: z.input<typeof createAccountSchema>,
  now: Date = new Date(),
): Promise<{ user: User; password: string }> {
  const parsed = createAccountSchema.safeParse(input);
  if (!parsed.success) throw new AccountCommandError(parsed.error.issues.map((i) => i.message).join("; "));
  const { role, phone, email, nickname } = parsed.data;
  if (!phone && !email) throw new AccountCommandError("give --phone or --email (or both)");
  if ((await findByAddress(database, { phone, email })).length > 0)
    throw new AccountCommandError(
      "an account with this phone or e-mail already exists (use user:role to change its role)",
    );
  const password = oneTimePassword();
  const hash = await hashPassword(password);
  const user = await database.db.transaction().execute(async (trx) => {
    const made = await trx
      .insertInto("users")
      .values({
        phone: phone ?? null,
        email: email ?? null,
        password_hash: hash,
        password_change_required: true,
        nickname: nickname ?? (role === "operator" ? "运营" : role === "teacher" ? "老师" : "学员"),
        role,
        // Made by the site's operator: no "complete your info" step after the first login.
        info_completed_at: now,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId: null,
      action: "user.create",
      targetType: "user",
      targetId: made.id,
      after: { role },
    });
    return made;
  });
  return { user, password };
}

/** The account of exactly one address (phone or e-mail, or both of the same account). */
async function accountOf(database: Database, address: { phone?: string; email?: string }): Promise<User> {
  const parsed = accountAddressSchema.safeParse(address);
  if (!parsed.success) throw new AccountCommandError(parsed.error.issues.map((i) => i.message).join("; "));
  const found = await findByAddress(database, parsed.data);
  if (found.length === 0) throw new AccountCommandError("no account with this phone or e-mail");
  if (found.length > 1) throw new AccountCommandError("the phone and the e-mail belong to different accounts");
  return found[0]!;
}

export interface RoleChange {
  userId: number;
  before: Role;
  after: Role;
}

/** The role after a change: a grant gives the role (an operator stays operator: it includes teacher); a revoke of the role held goes back to learner. */
export function roleAfter(before: Role, change: { grant?: GrantableRole; revoke?: GrantableRole }): Role {
  if (change.grant) return before === "operator" ? "operator" : change.grant;
  if (change.revoke && before === change.revoke) return "learner";
  return before;
}

/** `grant`: the account gets the role (an operator keeps operator: it includes teacher). `revoke`: back to learner. */
export async function changeRole(
  database: Database,
  address: { phone?: string; email?: string },
  change: { grant?: GrantableRole; revoke?: GrantableRole },
  now: Date = new Date(),
): Promise<RoleChange> {
  if (!change.grant === !change.revoke) throw new AccountCommandError("give exactly one of --grant or --revoke");
  for (const role of [change.grant, change.revoke])
    if (role !== undefined && !GRANTABLE.includes(role))
      throw new AccountCommandError("roles that can be granted or revoked: teacher, operator");
  const user = await accountOf(database, address);
  const before = user.role;
  const after = roleAfter(before, change);
  if (after !== before)
    await database.db.transaction().execute(async (trx) => {
      await trx.updateTable("users").set({ role: after, updated_at: now }).where("id", "=", user.id).execute();
      await recordAudit(trx, {
        actorId: null,
        action: change.grant ? "user.role.grant" : "user.role.revoke",
        targetType: "user",
        targetId: user.id,
        before: { role: before },
        after: { role: after },
      });
    });
  return { userId: user.id, before, after };
}

/**
 * Turns off the account's two-factor login (its phone was lost and no other operator can reset
 * it in the console): it signs in with the first factor alone and sets it up again.
 */
export async function resetTwoFactorOf(
  database: Database,
  address: { phone?: string; email?: string },
  now: Date = new Date(),
): Promise<{ userId: number; reset: boolean }> {
  const user = await accountOf(database, address);
  const reset = await database.db.transaction().execute(async (trx) => {
    const changed = await resetTwoFactor(trx, user.id, now);
    if (changed)
      await recordAudit(trx, {
        actorId: null,
        action: "user.two_factor.reset",
        targetType: "user",
        targetId: user.id,
        before: { twoFactor: true },
        after: { twoFactor: false },
        reason: "在服务器上用命令行重置（手机丢失）",
      });
    return changed;
  });
  return { userId: user.id, reset };
}
