/** 账号注销协议: conditions, the 15-day cooling-off period, what is lost and what the law keeps. */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import { DELETION_COOLING_DAYS } from "../../../shared/contracts/me";

export default function DeletionAgreementPage() {
  const { siteName, serviceEmail, servicePhone } = useRootData();
  return (
    <Page lead="注销是不可恢复的操作。提交申请前，请完整阅读本协议，特别是加粗标示的内容。">
      <div className="prose prose--numbered">
        <p className="card prose__intro">
          本协议说明您申请注销{siteName}
          账号的条件、流程和后果。您在“个人中心—账号与安全”中提交注销申请，即表示您已阅读并同意本协议。
        </p>

        <div className="notice notice--warning" role="note">
          <p className="notice__title">请先确认</p>
          <p>
            注销申请提交后有 <strong>{DELETION_COOLING_DAYS} 天冷静期</strong>
            。冷静期结束后，账号将被注销，您的个人信息将被删除或匿名化处理，
            <strong>已购课程、学习记录、作业、金币和笔山余额等将全部清除，且无法恢复。</strong>
          </p>
        </div>

        <section aria-labelledby="deletion-conditions">
          <h2 id="deletion-conditions">申请条件</h2>
          <ol className="prose__clauses">
            <li>注销申请须由账号本人提出，并通过绑定手机或邮箱的验证码完成身份验证。</li>
            <li>
              提交申请时，账号应同时满足以下条件：
              <ul>
                <li>账号处于正常状态，近期没有被盗、被冻结或正在处理的安全问题；</li>
                <li>没有待支付、待发货、已发货未签收的订单；</li>
                <li>没有正在处理中的退款、退货或售后申请；</li>
                <li>没有尚未成团的拼团，也没有尚未被领取的赠课；</li>
                <li>没有尚未解决的投诉、纠纷。</li>
              </ul>
            </li>
            <li>不满足条件的，页面会提示具体原因，请先处理完毕再申请。</li>
          </ol>
        </section>

        <section aria-labelledby="deletion-cooling">
          <h2 id="deletion-cooling">{DELETION_COOLING_DAYS} 天冷静期</h2>
          <ol className="prose__clauses">
            <li>
              为防止误操作或他人冒用，注销申请提交后进入 <strong>{DELETION_COOLING_DAYS} 天冷静期</strong>
              。冷静期内账号被冻结：不能购买或支付、兑换、签到领金币、领取优惠券、预约直播、报名或打卡活动、提交作业、在直播间发言或签到；已购的课程和直播回放仍可观看。
            </li>
            <li>冷静期内，您可以登录账号，在“账号与安全”中撤销注销申请，账号随即恢复正常，所有数据保持原样。</li>
            <li>
              <strong>冷静期届满且您未撤销申请的，账号将被正式注销。</strong>
              注销完成后，我们会删除您的个人信息，或对其进行匿名化处理，使其无法再识别到您本人。
            </li>
          </ol>
        </section>

        <section aria-labelledby="deletion-loss">
          <h2 id="deletion-loss">注销后将失去的内容</h2>
          <ol className="prose__clauses">
            <li>
              <strong>已购买、已领取的全部课程</strong>
              ，包括录播课、直播课及其回放、训练营和公开课的学习资格；尚未使用的课程不会因注销而自动退款，如需退款，请在申请注销前按《服务协议》办理。
            </li>
            <li>学习进度、播放记录、学习日历、练字日记和打卡记录。</li>
            <li>已提交的作业照片、老师的批改和评语，以及已公开展示在作业墙上的作品。</li>
            <li>
              <strong>全部金币和笔山余额</strong>
              ，以及卡包中尚未使用的优惠券和兑换券。金币和笔山不能提现或转移，注销后不予折算、不予补偿。
            </li>
            <li>账号绑定的手机号、邮箱、扫码登录身份和登录设备，以及昵称、头像、个人简介等资料。</li>
            <li>
              注销完成后，您可以用同一手机号或邮箱重新注册，但新账号与原账号没有任何关联，原账号的内容无法找回或迁移。
            </li>
          </ol>
        </section>

        <section aria-labelledby="deletion-retention">
          <h2 id="deletion-retention">依法保留的信息</h2>
          <ol className="prose__clauses">
            <li>
              根据《中华人民共和国电子商务法》等法律法规的要求，<strong>订单和交易记录</strong>
              （包括商品或课程信息、金额、支付与退款记录）自交易完成之日起保存不少于三年；网络日志按照法律要求保存不少于六个月。
            </li>
            <li>
              上述信息仅为履行法定义务、处理可能出现的争议或配合有权机关依法调取而保存，不会用于营销或其他目的，也不会再与您的新账号关联。保存期限届满后，我们将予以删除或匿名化处理。
            </li>
          </ol>
        </section>

        <section aria-labelledby="deletion-other">
          <h2 id="deletion-other">其他约定</h2>
          <ol className="prose__clauses">
            <li>注销账号不代表您在注销前的行为和相关责任得到豁免或减轻。</li>
            <li>
              本协议未约定的事项，适用<Link to="/agreement">《用户协议》</Link>和
              <Link to="/protocol/privacy">《隐私政策》</Link>。
            </li>
            <li>
              对注销有任何疑问，请拨打客服电话 <a href={`tel:${servicePhone}`}>{servicePhone}</a>
              （每日 9:00–21:00），或发送邮件至 <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>。
            </li>
          </ol>
        </section>
      </div>
    </Page>
  );
}
