/** The bishan ledger of the learner. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExchangeRecordBishanPage() {
  return (
    <Page>
      <EmptyState
        glyph="山"
        title="笔山明细即将开放"
        action={
          <Link className="button" to="/guide#currency">
            了解金币与笔山
          </Link>
        }
      >
        <p>每一笔笔山的获得与使用都会在这里逐条记录：来源（付费订单或金币兑换）、数量和变动后的余额。</p>
        <p>账号服务上线后即可查看。</p>
      </EmptyState>
    </Page>
  );
}
