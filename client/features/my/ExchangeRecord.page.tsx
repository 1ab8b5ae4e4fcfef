/** The learner's exchange history. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExchangeRecordPage() {
  return (
    <Page>
      <EmptyState
        glyph="录"
        title="兑换记录即将开放"
        action={
          <>
            <Link className="button" to="/my/exchange/record/coin">
              金币明细
            </Link>
            <Link className="button" to="/my/exchange/record/bishan">
              笔山明细
            </Link>
          </>
        }
      >
        <p>你的每一次兑换都会记录在这里：兑换的物品、消耗的金币或笔山，以及实物的发货状态。</p>
        <p>兑换商城上线后即可查看。</p>
      </EmptyState>
    </Page>
  );
}
