/** The exchange mall: spend coins and bishan. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExchangePage() {
  return (
    <Page>
      <EmptyState
        glyph="换"
        title="兑换商城即将开放"
        action={
          <Link className="button" to="/guide#currency">
            了解金币与笔山
          </Link>
        }
      >
        <p>可以用金币和笔山兑换文房用品、书籍、优惠券和课程，每件物品都会标明所需数量、库存和每人限兑数量。</p>
        <p>兑换商城会随账号服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
