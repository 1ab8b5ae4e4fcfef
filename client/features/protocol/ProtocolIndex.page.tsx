/** 协议与帮助: the entry to the agreements, contact and feedback pages. */
import { Link } from "../../routing/link";
import { Page } from "../../components/Page";

const entries = [
  { to: "/protocol/service", title: "服务协议", text: "购买课程与商品、直播与回放、作业批改、拼团和退款的规则。" },
  {
    to: "/protocol/privacy",
    title: "隐私政策",
    text: "我们收集哪些个人信息、为什么收集、保存多久，以及你可以怎样管理它们。",
  },
  { to: "/protocol/contact", title: "联系我们", text: "客服电话、电子邮箱和服务时间。" },
  { to: "/protocol/feedback", title: "意见反馈", text: "告诉我们哪里不好用、哪里可以做得更好。" },
] as const;

export default function ProtocolIndexPage() {
  return (
    <Page lead="使用网站前需要了解的约定，以及遇到问题时找到我们的方式。">
      <ul className="link-list">
        {entries.map((e) => (
          <li key={e.to}>
            <Link to={e.to}>
              <span className="link-list__title">{e.title}</span>
              <span className="link-list__text">{e.text}</span>
            </Link>
          </li>
        ))}
      </ul>
      <p className="link-list__note">
        另见{" "}
        <Link className="text-link" to="/agreement">
          用户协议
        </Link>{" "}
        和{" "}
        <Link className="text-link" to="/deletion-agreement">
          账号注销协议
        </Link>
        。
      </p>
    </Page>
  );
}
