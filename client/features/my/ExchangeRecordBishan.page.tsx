/** 笔山明细: every bishan ledger line with its reason, linked object and balance after. */
import { LedgerPageView, ledgerLoader } from "./exchange-ledger";

export const loader = ledgerLoader("bishan", "笔山明细");

export default function ExchangeRecordBishanPage() {
  return <LedgerPageView basePath="/my/exchange/record/bishan" />;
}
