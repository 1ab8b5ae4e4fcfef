/** The detail of one exchange item. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExchangeDetailPage() {
  return (
    <Page>
      <EmptyState
        glyph="换"
        title="兑换详情即将开放"
        action={
          <Link className="button" to="/my/exchange">
            返回兑换商城
          </Link>
        }
      >
        <p>兑换物品的介绍、所需的金币或笔山、库存和每人限兑数量将在这里显示。</p>
        <p>兑换商城上线后即可查看。</p>
      </EmptyState>
    </Page>
  );
}
