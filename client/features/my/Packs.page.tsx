/** The learner's coupons and vouchers. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function PacksPage() {
  return (
    <Page>
      <EmptyState
        glyph="券"
        title="我的卡包即将开放"
        action={
          <Link className="button" to="/protocol/service">
            查看优惠券规则
          </Link>
        }
      >
        <p>优惠券和兑换券将在这里按可用、已使用、已过期和已退回分类查看，每张券都会写明使用条件和有效期。</p>
        <p>卡包会随订单服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
