/** 用户协议: the terms every account agrees to. Chapters and clauses are numbered by the stylesheet. */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import { ORDER_PAY_MINUTES } from "../../../shared/contracts/orders";
import { GROUP_PAY_MINUTES } from "../../../shared/contracts/groups";

export default function AgreementPage() {
  const { siteName } = useRootData();
  return (
    <Page lead={`欢迎使用${siteName}。注册或使用本网站前，请仔细阅读本协议，特别是加粗标示的条款。`}>
      <div className="prose prose--numbered">
        <p className="card prose__intro">
          本协议是您与{siteName}运营方（以下简称“我们”）之间关于注册、登录和使用{siteName}
          网站及相关服务（以下简称“本服务”）的约定。您点击同意本协议、完成注册，或以其他方式实际使用本服务，即表示您已阅读、理解并同意本协议的全部内容。如果您不同意，请停止注册或使用。
        </p>

        <AccountAndServiceTerms />

        <ConductAndLiabilityTerms />
      </div>
    </Page>
  );
}

/** Scope, the account, the courses, what a learner posts, the two currencies. */
function AccountAndServiceTerms() {
  return (
    <>
      <section aria-labelledby="agreement-scope">
        <h2 id="agreement-scope">协议的范围</h2>
        <ol className="prose__clauses">
          <li>
            本协议适用于您通过电脑网页使用本服务的全部行为，包括浏览课程、观看录播与直播、提交作业、记录练字日记、参与拼团与兑换、购买课程和实物商品等。
          </li>
          <li>
            具体服务的购买、开通、退款等规则见
            <Link to="/protocol/service">《服务协议》</Link>；我们如何收集和使用您的个人信息见
            <Link to="/protocol/privacy">《隐私政策》</Link>；注销账号的条件和后果见
            <Link to="/deletion-agreement">《账号注销协议》</Link>。以上文件是本协议不可分割的组成部分。
          </li>
          <li>课程页面、活动页面上公布的具体规则，与本协议不一致的，以该页面的具体规则为准。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-account">
        <h2 id="agreement-account">账号注册与使用</h2>
        <ol className="prose__clauses">
          <li>
            您可以使用手机号码、电子邮箱或扫码方式注册和登录。注册时请提供真实、有效的信息，并在信息变化时及时更新。
          </li>
          <li>
            <strong>
              账号仅供您本人使用，不得出借、出租、转让或出售。因您主动泄露验证码、密码或将账号交给他人使用而造成的损失，由您自行承担。
            </strong>
          </li>
          <li>
            为保障账号安全，我们可能限制同一账号同时登录的设备数量，并在发现异常登录时要求您重新验证身份。您可以在“个人中心—账号与安全”中查看和管理已登录的设备。
          </li>
          <li>
            昵称、头像和个人简介不得含有违法、侵权、低俗或冒充他人的内容，否则我们有权要求修改，或恢复为默认内容。
          </li>
          <li>
            未满十八周岁的用户，应在监护人的陪同和同意下阅读本协议并使用本服务；未满十四周岁的用户，须由监护人同意后方可注册。
          </li>
        </ol>
      </section>

      <section aria-labelledby="agreement-service">
        <h2 id="agreement-service">课程与学习服务</h2>
        <ol className="prose__clauses">
          <li>
            本服务包括录播课、直播课及其回放、训练营、作业批改、练字日记与学习日历等。各门课程的内容、课时数量、开课时间和有效期，以课程页面的介绍为准。
          </li>
          <li>
            您购买的课程仅限本人在本网站观看学习。
            <strong>
              未经我们书面许可，不得录制、下载、转载、传播课程视频、直播画面和讲义，也不得以任何形式用于商业用途。
            </strong>
          </li>
          <li>
            直播课可能因老师身体原因、网络故障等情况调整时间。调整时我们会提前通知；无法补上的课程，按《服务协议》的约定处理。
          </li>
          <li>作业批改由老师人工完成，评级和评语是针对当次作业的学习建议，不构成任何考级、认证或资格证明。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-content">
        <h2 id="agreement-content">您发布的内容</h2>
        <ol className="prose__clauses">
          <li>
            您上传的作业照片、练字日记、直播间发言和反馈内容（以下统称“您的内容”），其权利归您或原权利人所有。您应保证对您的内容享有相应权利，且不侵犯他人的合法权益。
          </li>
          <li>
            为向您提供批改、展示和存储服务，您授权我们在提供本服务所必需的范围内存储、复制、显示您的内容，以及在批改时在作业照片上圈画、批注。
          </li>
          <li>
            <strong>只有在您主动选择公开后，您的作业才会出现在作业墙等公开位置；</strong>
            您可以随时取消公开，取消后我们会将其从公开位置撤下。您通过分享页面自行转发的内容，请留意其传播范围。
          </li>
          <li>
            您不得发布以下内容：违反法律法规的；侵犯他人知识产权、肖像权、隐私权的；含有广告、引流或欺诈信息的；辱骂、歧视、骚扰他人的；以及其他违背公序良俗的内容。
          </li>
        </ol>
      </section>

      <section aria-labelledby="agreement-currency">
        <h2 id="agreement-currency">金币与笔山</h2>
        <ol className="prose__clauses">
          <li>
            金币是对学习行为的奖励，可以通过每日签到、完成课时、提交作业、作业获评优秀和出勤直播课等方式获得，每类行为每天有获得上限。
          </li>
          <li>笔山可以通过完成付费订单获得，也可以按网站公布的比例由金币单向兑换而来；笔山不能兑换回金币。</li>
          <li>
            金币和笔山可在兑换商城中兑换文房用品、书籍、优惠券和课程，兑换物品的库存和每人限兑数量以兑换页面为准。
          </li>
          <li>
            <strong>金币和笔山是本网站内的学习激励，不是货币，不能购买、充值、提现、转让或在账号之间转移。</strong>
            每一笔获得和使用都记录在“金币明细”“笔山明细”中，供您随时查看。
          </li>
          <li>
            通过作弊、刷量、利用系统漏洞等不正当方式获得的金币和笔山，我们有权扣除；已兑换的物品，我们有权要求退回或折价补偿。
          </li>
        </ol>
      </section>
    </>
  );
}

/** Orders, conduct, rights, liability, privacy, ending, changes, law and contact. */
function ConductAndLiabilityTerms() {
  const { serviceEmail, servicePhone } = useRootData();
  return (
    <>
      <section aria-labelledby="agreement-order">
        <h2 id="agreement-order">订单与支付</h2>
        <ol className="prose__clauses">
          <li>商品和课程的价格以下单时页面显示的为准。订单生成时，价格、使用的优惠券和金币抵扣情况会记录在订单上。</li>
          <li>
            订单生成后 {ORDER_PAY_MINUTES} 分钟内未支付的，将自动取消；拼团订单的支付时限为 {GROUP_PAY_MINUTES} 分钟。
          </li>
          <li>退款、退货和拼团失败的处理规则，见《服务协议》。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-conduct">
        <h2 id="agreement-conduct">使用规范</h2>
        <ol className="prose__clauses">
          <li>
            您不得以任何方式干扰本服务的正常运行，包括但不限于：使用程序批量注册、抓取课程内容、攻击服务器、绕过付费或访问限制。
          </li>
          <li>您不得利用本服务从事违法活动，或发布、传播第 4.4 条所列的禁止内容。</li>
          <li>
            违反本章约定的，我们可以视情节采取提醒、删除内容、限制部分功能、暂停或终止账号等措施，并保留依法追究责任的权利。处理前后，我们会告知您原因，您可以通过客服提出申诉。
          </li>
        </ol>
      </section>

      <section aria-labelledby="agreement-ip">
        <h2 id="agreement-ip">知识产权</h2>
        <ol className="prose__clauses">
          <li>
            本网站的课程视频、讲义、范字、界面设计、标识和文字等内容的知识产权，归我们或相应的权利人所有，受法律保护。
          </li>
          <li>除法律允许的个人学习用途外，未经许可，任何人不得复制、改编、传播或以其他方式使用上述内容。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-liability">
        <h2 id="agreement-liability">服务的变更、中断与责任</h2>
        <ol className="prose__clauses">
          <li>
            我们会尽力保证本服务稳定运行。因系统维护需要暂停服务的，我们会尽量提前在网站上公告，并选择对学习影响较小的时间进行。
          </li>
          <li>
            因不可抗力、电信网络故障、第三方服务故障等我们无法控制的原因导致服务中断的，我们会尽快恢复；已购课程受影响的，按《服务协议》处理。
          </li>
          <li>书法与写作的进步取决于个人的练习，我们不对学习效果、考试或比赛结果作出承诺。</li>
          <li>本协议中的任何条款，均不排除或限制依照法律规定我们应当承担的责任。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-privacy">
        <h2 id="agreement-privacy">个人信息保护</h2>
        <ol className="prose__clauses">
          <li>
            我们重视对您个人信息的保护。我们收集哪些信息、为什么收集、保存多久以及您享有哪些权利，请阅读
            <Link to="/protocol/privacy">《隐私政策》</Link>。
          </li>
        </ol>
      </section>

      <section aria-labelledby="agreement-termination">
        <h2 id="agreement-termination">账号注销与协议终止</h2>
        <ol className="prose__clauses">
          <li>
            您可以在“个人中心—账号与安全”中申请注销账号。注销的条件、冷静期和后果，见
            <Link to="/deletion-agreement">《账号注销协议》</Link>。
          </li>
          <li>账号注销完成或被依约终止后，本协议随之终止，但终止前已发生的权利义务不受影响。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-changes">
        <h2 id="agreement-changes">协议的修改</h2>
        <ol className="prose__clauses">
          <li>
            我们可能根据法律法规变化或服务调整修改本协议。修改后的协议会在本页面公布；涉及您重大权益的修改，我们会通过站内通知等显著方式提前告知。
          </li>
          <li>您不同意修改内容的，可以停止使用本服务并申请注销账号；修改生效后继续使用的，视为您接受修改后的协议。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-law">
        <h2 id="agreement-law">法律适用与争议解决</h2>
        <ol className="prose__clauses">
          <li>本协议的订立、履行和解释，适用中华人民共和国法律（不含港澳台地区法律）。</li>
          <li>因本协议产生的争议，双方应先友好协商；协商不成的，任何一方均可向有管辖权的人民法院提起诉讼。</li>
        </ol>
      </section>

      <section aria-labelledby="agreement-contact">
        <h2 id="agreement-contact">联系我们</h2>
        <ol className="prose__clauses">
          <li>
            对本协议有任何疑问，请拨打客服电话 <a href={`tel:${servicePhone}`}>{servicePhone}</a>
            （每日 9:00–21:00），或发送邮件至 <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>。
          </li>
        </ol>
      </section>
    </>
  );
}
