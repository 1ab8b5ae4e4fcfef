/** Account security: password, bindings, devices and deletion. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function SecurityPage() {
  return (
    <Page>
      <EmptyState
        glyph="安"
        title="账号与安全即将开放"
        action={
          <Link className="button" to="/deletion-agreement">
            阅读账号注销协议
          </Link>
        }
      >
        <p>可以在这里设置密码，绑定或解绑手机号、邮箱和扫码登录，查看并管理已登录的设备，也可以申请注销账号。</p>
        <p>这些功能会随账号服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
