/** 联系我们: how to reach customer service, and when. */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";

export default function ContactPage() {
  const { servicePhone, serviceEmail } = useRootData();
  return (
    <Page lead="课程、订单、账号或网站使用上的任何问题，都可以找我们。">
      <div className="prose">
        <dl className="service-card">
          <dt>客服电话</dt>
          <dd>
            <a href={`tel:${servicePhone}`}>{servicePhone}</a>
          </dd>
          <dt>电子邮箱</dt>
          <dd>
            <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>
          </dd>
          <dt>服务时间</dt>
          <dd>每日 9:00–21:00</dd>
        </dl>

        <h2>怎样更快解决问题</h2>
        <ul>
          <li>关于订单和退款，请说明订单号，或下单时使用的手机号、邮箱；</li>
          <li>关于看课和直播，请说明课程名称、出问题的时间和所用的浏览器；</li>
          <li>关于作业批改，请说明课程名称和课时；</li>
          <li>遇到页面错误，附一张截图会很有帮助。</li>
        </ul>
        <p>服务时间以外发来的邮件，我们会在下一个服务日处理。</p>

        <h2>意见与建议</h2>
        <p>
          不是急需解决的问题，而是想告诉我们哪里不好用、希望增加什么课程，欢迎到
          <Link to="/protocol/feedback">意见反馈</Link>页留言。每一条反馈都会有人读。
        </p>
        <p>
          常见问题也可以先查看<Link to="/guide">新手指南</Link>和<Link to="/guide/live">直播课指南</Link>。
        </p>
      </div>
    </Page>
  );
}
