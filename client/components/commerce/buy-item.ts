import type { ItemType } from "../../../shared/contracts/orders";

/** What a buy button buys (useBuy.tsx), and what the address dialog names. */
export interface BuyItem {
  itemType: ItemType;
  itemId: number;
  skuId?: number;
  quantity?: number;
  /** "《九成宫》× 2", shown in the address dialog. */
  label: string;
}
