/** The learner's orders. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function OrderPage() {
  return (
    <Page>
      <EmptyState
        glyph="单"
        title="我的订单即将开放"
        action={
          <Link className="button" to="/guide#orders">
            了解订单与退款
          </Link>
        }
      >
        <p>课程、书籍和文房的订单将在这里统一查看，可以继续支付、取消订单或申请退款。</p>
        <p>订单服务上线后即可使用。</p>
      </EmptyState>
    </Page>
  );
}
