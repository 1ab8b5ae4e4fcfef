import { Link } from "../routing/link";
import { aboutProducts } from "../../shared/routes";
import { useRootData } from "../lib/root-data";

export function SiteFooter() {
  const { siteName, build, icpNumber } = useRootData();
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <section>
          <h2 className="site-footer__heading">关于</h2>
          <ul>
            <li>
              <Link to="/about">关于我们</Link>
            </li>
            {Object.entries(aboutProducts).map(([key, name]) => (
              <li key={key}>
                <Link to={`/about-${key}`}>{name}</Link>
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h2 className="site-footer__heading">帮助</h2>
          <ul>
            <li>
              <Link to="/guide">新手指南</Link>
            </li>
            <li>
              <Link to="/guide/live">直播课指南</Link>
            </li>
            <li>
              <Link to="/protocol/contact">联系我们</Link>
            </li>
            <li>
              <Link to="/protocol/feedback">意见反馈</Link>
            </li>
          </ul>
        </section>
        <section>
          <h2 className="site-footer__heading">协议</h2>
          <ul>
            <li>
              <Link to="/agreement">用户协议</Link>
            </li>
            <li>
              <Link to="/protocol/service">服务协议</Link>
            </li>
            <li>
              <Link to="/protocol/privacy">隐私政策</Link>
            </li>
            <li>
              <Link to="/deletion-agreement">账号注销协议</Link>
            </li>
          </ul>
        </section>
        <div className="site-footer__motto">
          <p className="site-footer__brand">{siteName}</p>
          <p>一笔一画，皆是修行。</p>
        </div>
      </div>
      <div className="container site-footer__meta">
        <span>
          © {siteName} · 版本 {build.version}
        </span>
        {icpNumber ? (
          <a className="site-footer__icp" href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer">
            {icpNumber}
          </a>
        ) : null}
      </div>
    </footer>
  );
}
