/** 新手指南: the first week on the site, from logging in to orders and refunds. */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import { ORDER_PAY_MINUTES, REFUND_DAYS } from "../../../shared/contracts/orders";
import { GROUP_PAY_MINUTES } from "../../../shared/contracts/groups";

const sections = [
  { id: "login", title: "注册与登录" },
  { id: "choose", title: "选一门课" },
  { id: "watch", title: "看课" },
  { id: "homework", title: "交作业" },
  { id: "diary", title: "练字日记" },
  { id: "currency", title: "金币与笔山" },
  { id: "orders", title: "订单与退款" },
  { id: "help", title: "还有问题" },
] as const;

export default function GuidePage() {
  const { siteName, serviceEmail, servicePhone } = useRootData();
  return (
    <Page lead={`第一次来${siteName}？按下面的顺序走一遍，十分钟就能开始上第一节课。`}>
      <div className="article-layout">
        <div className="prose">
          <section id="login" aria-labelledby="guide-login">
            <h2 id="guide-login">一、注册与登录</h2>
            <p>点击页面右上角的“登录 / 注册”，在弹出的窗口里选择一种方式：</p>
            <ul>
              <li>
                <strong>手机号：</strong>输入手机号，获取短信验证码后登录。第一次使用的手机号会自动注册新账号。
              </li>
              <li>
                <strong>邮箱：</strong>用邮箱和密码登录，也可以让我们发送一封带验证码的邮件。
              </li>
              <li>
                <strong>扫码：</strong>用手机上的即时通讯应用扫描窗口中的二维码，在手机上确认即可登录。
              </li>
            </ul>
            <p>
              忘记了用哪个手机号或邮箱注册，可以在登录窗口中选择“找回账号”。首次登录后，建议到“个人中心—个人资料”里设置昵称和头像，老师批改作业时会看到它们。
            </p>
            <p>
              浏览课程、书籍和文房不需要登录；购买、看课、交作业和打卡需要登录。注册即表示同意
              <Link to="/agreement">《用户协议》</Link>和<Link to="/protocol/privacy">《隐私政策》</Link>。
            </p>
          </section>

          <section id="choose" aria-labelledby="guide-choose">
            <h2 id="guide-choose">二、选一门课</h2>
            <p>
              在“课程”页按书体或方向筛选：楷书、行书、隶书、篆书、草书、硬笔、写作和国学。每门课的详情页写明了适合谁、共有多少课时、授课老师和课程类型：
            </p>
            <ul>
              <li>
                <strong>录播课：</strong>开通后随时观看，适合时间不固定的学员。
              </li>
              <li>
                <strong>直播课：</strong>按课表在固定时间上课，可以和老师实时交流，课后有回放。
              </li>
              <li>
                <strong>训练营：</strong>按日期逐天解锁课时，大家同一节奏一起练，适合需要一点督促的学员。
              </li>
            </ul>
            <p>
              拿不准从哪里开始，先看课程的免费试听课时，或者看看
              <Link to="/about-maobi">毛笔书法</Link>、<Link to="/about-yingbi">硬笔书法</Link>和
              <Link to="/about-xiezuo">写作</Link>的介绍。零基础学毛笔，建议从楷书入门。
            </p>
          </section>

          <section id="watch" aria-labelledby="guide-watch">
            <h2 id="guide-watch">三、看课</h2>
            <p>
              已购买的课程都在“个人中心—我的课程”里。打开课程，按章节顺序学习即可。播放器可以调节倍速；看到哪里、用的几倍速，都会自动保存，在另一台电脑上登录也能接着看。
            </p>
            <p>
              看书法示范时，建议先完整看一遍，再暂停在关键的笔画处，对照着写。准备好笔墨纸再开始看课，看完马上动笔，效果最好。直播课的上课方法见
              <Link to="/guide/live">直播课指南</Link>。
            </p>
          </section>

          <section id="homework" aria-labelledby="guide-homework">
            <h2 id="guide-homework">四、交作业</h2>
            <p>每个课时下都有对应的作业。写好之后，在课时页面或“个人中心—我的作业”中提交：</p>
            <ol>
              <li>用手机或相机拍下作业，每次可以上传 1～9 张照片；</li>
              <li>拍照时尽量在自然光下，镜头正对纸面，让整张纸完整入镜，不要使用滤镜或美颜；</li>
              <li>提交后作业状态为“待批改”，老师批改后变为“已批改”，你会收到通知。</li>
            </ol>
            <p>
              批改结果包括评级（优、良、中、需加强）、评语，以及老师直接在照片上的圈画。你可以打开田字格、米字格或九宫格，把自己的字和范字放在一起对照。
            </p>
            <p>
              如果作业被“退回重写”，页面上会写明原因，按要求修改后重新提交即可；同一份作业最多可以提交 3
              次，每一次的记录都会保留。被评为“优”的作业，只有在你同意公开后才会出现在作业墙上。
            </p>
          </section>

          <section id="diary" aria-labelledby="guide-diary">
            <h2 id="guide-diary">五、练字日记</h2>
            <p>
              每天练完字，到“个人中心—练字日记”打个卡：记下练习时长和所写字数，再拍一张当天的习作。连续打卡的天数会显示在日记页上。
            </p>
            <p>
              “学习日历”会把你报名的直播课时间、训练营的解锁日和每天的打卡放在同一张日历上，一眼就能看到这个月的安排和完成情况。
            </p>
          </section>

          <section id="currency" aria-labelledby="guide-currency">
            <h2 id="guide-currency">六、金币与笔山</h2>
            <p>网站上有两种学习奖励：</p>
            <ul>
              <li>
                <strong>金币：</strong>
                每日签到、完成课时、提交作业、作业获评“优”、出勤直播课都可以获得，每类行为每天有获得上限。
              </li>
              <li>
                <strong>笔山：</strong>
                完成付费订单后获得，也可以用金币按公布的比例兑换；兑换是单向的，笔山不能换回金币。
              </li>
            </ul>
            <p>
              金币和笔山都可以在“兑换商城”里兑换文房用品、书籍、优惠券和课程。它们不能购买，也不能提现或转让。每一笔收支都记录在“金币明细”和“笔山明细”中。
            </p>
          </section>

          <section id="orders" aria-labelledby="guide-orders">
            <h2 id="guide-orders">七、订单与退款</h2>
            <p>所有订单都在“个人中心—我的订单”里，可以查看状态、继续支付、取消或申请退款。</p>
            <ul>
              <li>
                下单后 {ORDER_PAY_MINUTES} 分钟内未支付的订单会自动取消；拼团订单的支付时限为 {GROUP_PAY_MINUTES} 分钟。
              </li>
              <li>
                <strong>课程等虚拟商品：</strong>购买后 {REFUND_DAYS}{" "}
                天内，如果还没有开始学习（未观看试听以外的课时、未提交作业、未参加直播），可以申请全额退款。
              </li>
              <li>
                <strong>书籍、文房等实物商品：</strong>签收后 {REFUND_DAYS}{" "}
                天内，在商品完好、不影响再次销售的情况下可以申请退货。
              </li>
              <li>
                <strong>拼团：</strong>24 小时内未凑齐人数的拼团会自动失败，已付款项原路退回。
              </li>
              <li>订单取消或退款后，订单上使用的优惠券会退回你的卡包。</li>
            </ul>
            <p>
              完整规则见<Link to="/protocol/service">《服务协议》</Link>。
            </p>
          </section>

          <section id="help" aria-labelledby="guide-help">
            <h2 id="guide-help">八、还有问题</h2>
            <p>
              客服电话 <a href={`tel:${servicePhone}`}>{servicePhone}</a>，每日 9:00–21:00；电子邮箱{" "}
              <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>。也可以点击页面右侧的“客服”按钮，或到
              <Link to="/protocol/feedback">意见反馈</Link>告诉我们哪里还不好用。
            </p>
          </section>
        </div>
        <aside className="card article-aside article-aside--toc">
          <nav aria-labelledby="guide-toc">
            <h2 id="guide-toc">本页目录</h2>
            <ol className="toc-list">
              {sections.map((s) => (
                <li key={s.id}>
                  <Link to={`#${s.id}`}>{s.title}</Link>
                </li>
              ))}
            </ol>
          </nav>
        </aside>
      </div>
    </Page>
  );
}
