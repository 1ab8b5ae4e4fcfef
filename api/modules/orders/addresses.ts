/** The learner's shipping addresses (at most 20), used as a snapshot on physical orders. */
import type { Address, AddressInput } from "../../../shared/contracts/orders";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";

export const MAX_ADDRESSES = 20;

export async function listAddresses(ctx: ApiContext, userId: number): Promise<Address[]> {
  const rows = await ctx.database.db
    .selectFrom("addresses")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("is_default", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((a) => ({
    id: a.id,
    recipient: a.recipient,
    phone: a.phone,
    region: a.region,
    detail: a.detail,
    isDefault: a.is_default,
  }));
}

export async function addAddress(ctx: ApiContext, userId: number, input: Required<AddressInput>): Promise<Address> {
  return ctx.database.db.transaction().execute(async (trx) => {
    // One learner's address book changes one request at a time.
    await trx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().executeTakeFirst();
    const count = await trx
      .selectFrom("addresses")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ADDRESSES)
      throw new ApiError(409, "too_many_addresses", `最多保存 ${MAX_ADDRESSES} 个收货地址`);
    const isDefault = input.isDefault || Number(count.n) === 0;
    if (isDefault)
      await trx.updateTable("addresses").set({ is_default: false }).where("user_id", "=", userId).execute();
    const a = await trx
      .insertInto("addresses")
      .values({
        user_id: userId,
        recipient: input.recipient,
        phone: input.phone,
        region: input.region,
        detail: input.detail,
        is_default: isDefault,
        created_at: ctx.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      id: a.id,
      recipient: a.recipient,
      phone: a.phone,
      region: a.region,
      detail: a.detail,
      isDefault: a.is_default,
    };
  });
}

export async function deleteAddress(ctx: ApiContext, userId: number, id: number) {
  const row = await ctx.database.db
    .deleteFrom("addresses")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .returning("id")
    .executeTakeFirst();
  if (!row) throw notFound("地址不存在");
}
