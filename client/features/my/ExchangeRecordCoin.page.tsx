/** The coin ledger of the learner. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExchangeRecordCoinPage() {
  return (
    <Page>
      <EmptyState
        glyph="金"
        title="金币明细即将开放"
        action={
          <Link className="button" to="/guide#currency">
            了解金币与笔山
          </Link>
        }
      >
        <p>每一笔金币的获得与使用都会在这里逐条记录：签到、完成课时、提交作业、出勤直播等来源，数量和变动后的余额。</p>
        <p>账号服务上线后即可查看。</p>
      </EmptyState>
    </Page>
  );
}
