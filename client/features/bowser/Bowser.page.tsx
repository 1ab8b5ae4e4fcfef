/**
 * 请升级浏览器: where the browser guard sends engines too old for the site. It never redirects
 * itself, so it must read well in those old browsers too: plain markup, no script needed.
 */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";

const browsers = [
  { name: "Google Chrome", version: "87 及以上", note: "推荐使用" },
  { name: "Microsoft Edge", version: "87 及以上", note: "Windows 10、11 自带的新版 Edge" },
  { name: "Mozilla Firefox", version: "78 及以上", note: "" },
  { name: "Apple Safari", version: "14 及以上", note: "macOS 电脑" },
  { name: "360 安全浏览器、360 极速浏览器", version: "极速模式", note: "请切换到极速模式（Chromium 内核）" },
  { name: "QQ 浏览器", version: "极速模式", note: "请切换到极速模式（Chromium 内核）" },
] as const;

export default function BowserPage() {
  const { siteName, serviceEmail } = useRootData();
  return (
    <Page
      lead={`你正在使用的浏览器版本过旧，或处于兼容模式，无法正常显示${siteName}的课程视频、直播和作业上传。请升级或更换浏览器后再访问。`}
    >
      <div className="prose">
        <h2>支持的浏览器</h2>
        <table className="browser-table">
          <thead>
            <tr>
              <th scope="col">浏览器</th>
              <th scope="col">版本</th>
              <th scope="col">说明</th>
            </tr>
          </thead>
          <tbody>
            {browsers.map((b) => (
              <tr key={b.name}>
                <td>{b.name}</td>
                <td>{b.version}</td>
                <td>{b.note}</td>
              </tr>
            ))}
          </tbody>
        </table>

        <h2>为什么需要新版浏览器</h2>
        <p>
          课程视频的播放、直播间的实时互动、作业照片的上传和批注，都依赖较新的浏览器技术；登录和支付也需要新版浏览器提供的安全保护。Internet
          Explorer 和旧版浏览器已不再获得安全更新，无法完整支持这些功能。
        </p>

        <h2>如何切换到极速模式</h2>
        <p>
          360、QQ 等浏览器有两种内核。打开本站时，地址栏右侧会显示一个模式图标（闪电或字母
          e）：点击它，选择“极速模式”即可。切换后如果仍然看到本页，请把浏览器升级到最新版本。
        </p>

        <h2>如何查看浏览器版本</h2>
        <ul>
          <li>Chrome：菜单 → 设置 → 关于 Chrome；</li>
          <li>Edge：菜单 → 设置 → 关于 Microsoft Edge；</li>
          <li>Firefox：菜单 → 帮助 → 关于 Firefox；</li>
          <li>Safari：屏幕左上角的“Safari 浏览器”菜单 → 关于 Safari 浏览器。</li>
        </ul>
        <p>在上述页面中，浏览器通常会自动检查并安装更新，完成后重新启动浏览器即可。</p>

        <h2>仍然无法访问？</h2>
        <p>
          如果你使用的已经是上述版本，却依然看到本页，请发送邮件至 <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>
          ，告诉我们你的浏览器名称和版本号，我们会尽快处理。升级后可以<Link to="/">返回首页</Link>。
        </p>
      </div>
    </Page>
  );
}
