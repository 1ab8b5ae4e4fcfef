/** Paying an order. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function PaymentPage() {
  return (
    <Page>
      <EmptyState
        glyph="付"
        title="支付页面即将开放"
        action={
          <Link className="button" to="/protocol/service">
            查看购买与退款规则
          </Link>
        }
      >
        <p>确认订单后，将在这里核对金额、选择支付方式并完成付款。未支付的订单会保留 30 分钟。</p>
        <p>支付服务上线后即可使用，目前还不能下单。</p>
      </EmptyState>
    </Page>
  );
}
