/** After a successful payment. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function PaymentSuccessPage() {
  return (
    <Page>
      <EmptyState
        glyph="成"
        title="支付结果页即将开放"
        action={
          <Link className="button" to="/">
            返回首页
          </Link>
        }
      >
        <p>付款完成后，这里会显示订单信息和下一步：开始学习课程，或查看实物商品的发货进度。</p>
        <p>支付服务上线后即可使用。</p>
      </EmptyState>
    </Page>
  );
}
