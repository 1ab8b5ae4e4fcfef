/** 兑换记录: the two ledgers behind tabs; the coin ledger first. */
import { LedgerPageView, ledgerLoader } from "./exchange-parts";

export const loader = ledgerLoader("coin", "兑换记录");

export default function ExchangeRecordPage() {
  return <LedgerPageView basePath="/my/exchange/record/coin" />;
}
