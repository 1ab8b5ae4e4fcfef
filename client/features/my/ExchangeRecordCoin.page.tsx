/** 金币明细: every coin ledger line with its reason, linked object and balance after. */
import { LedgerPageView, ledgerLoader } from "./exchange-ledger";

export const loader = ledgerLoader("coin", "金币明细");

export default function ExchangeRecordCoinPage() {
  return <LedgerPageView basePath="/my/exchange/record/coin" />;
}
