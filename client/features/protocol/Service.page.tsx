/** 服务协议: the rules of the paid services (courses, live, homework, goods, group buys, refunds). */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import { ORDER_PAY_MINUTES, REFUND_DAYS } from "../../../shared/contracts/orders";
import { GROUP_PAY_MINUTES } from "../../../shared/contracts/groups";

export default function ServicePage() {
  const { siteName, serviceEmail, servicePhone } = useRootData();
  return (
    <Page lead={`本协议说明${siteName}各项服务的购买、开通、使用和退款规则，是《用户协议》的组成部分。`}>
      <div className="prose prose--numbered">
        <section aria-labelledby="service-scope">
          <h2 id="service-scope">服务范围</h2>
          <ol className="prose__clauses">
            <li>
              {siteName}
              提供的服务包括：录播课、直播课及其回放、训练营、公开课、作业批改、练字日记与学习日历，以及书籍、文房用品等实物商品的销售和兑换商城。
            </li>
            <li>
              本协议未约定的事项，适用<Link to="/agreement">《用户协议》</Link>
              ；课程或商品页面另有说明的，以页面说明为准。
            </li>
          </ol>
        </section>

        <section aria-labelledby="service-purchase">
          <h2 id="service-purchase">购买与开通</h2>
          <ol className="prose__clauses">
            <li>课程和商品的价格、课时数量、有效期、发货方式等信息，以下单时页面显示的为准。</li>
            <li>订单生成时，商品价格、所用优惠券和金币抵扣会记录在订单上，之后页面价格的变动不影响已生成的订单。</li>
            <li>
              订单生成后 {ORDER_PAY_MINUTES} 分钟内未支付的，自动取消；拼团订单的支付时限为 {GROUP_PAY_MINUTES} 分钟。
            </li>
            <li>课程在支付成功后立即开通，可在“个人中心—我的课程”中查看；训练营的课时按页面公布的日期逐日解锁。</li>
            <li>公开课和课程中标明可试听的课时，无需购买即可观看。</li>
          </ol>
        </section>

        <section aria-labelledby="service-study">
          <h2 id="service-study">录播、直播与回放</h2>
          <ol className="prose__clauses">
            <li>录播课在有效期内可以不限次数观看，学习进度和播放倍速会保存在您的账号中。</li>
            <li>
              直播课按公布的课表开课，仅对已报名的学员开放。在直播间累计观看满 10
              分钟计为一次出勤。直播结束后生成回放，供已报名的学员观看。
            </li>
            <li>
              直播因故取消或改期的，我们会通知报名学员并安排补课；无法补课的，按该场直播在课程中所占的比例退还相应费用，或经您同意后以其他课程替代。
            </li>
            <li>课程内容仅供您本人学习，不得录制、下载、转载或传播。</li>
          </ol>
        </section>

        <section aria-labelledby="service-homework">
          <h2 id="service-homework">作业批改</h2>
          <ol className="prose__clauses">
            <li>包含作业批改的课程，每个课时的作业可以上传 1～9 张照片，由老师人工批改。</li>
            <li>
              批改结果包括评级（优、良、中、需加强）、评语和在照片上的批注。需要重写的作业会附原因退回，同一份作业最多可提交
              3 次，历次记录均会保留。
            </li>
            <li>批改时限以课程页面的说明为准。照片模糊、不完整或与作业无关的，老师可以退回并请您重新拍摄。</li>
          </ol>
        </section>

        <section aria-labelledby="service-goods">
          <h2 id="service-goods">实物商品</h2>
          <ol className="prose__clauses">
            <li>
              书籍和文房用品按您填写的收货地址寄送。请确保收件人、电话和地址准确，因信息错误导致无法送达的，由您承担再次寄送的费用。
            </li>
            <li>
              签收时请检查外包装；商品破损、错发、漏发的，请在签收后 48 小时内联系客服并提供照片，我们将为您补发或更换。
            </li>
            <li>
              签收后 {REFUND_DAYS}{" "}
              天内，商品完好、不影响再次销售的，可以申请无理由退货，退回运费由您承担；商品本身存在质量问题的，运费由我们承担。
            </li>
          </ol>
        </section>

        <section aria-labelledby="service-groupbuy">
          <h2 id="service-groupbuy">拼团</h2>
          <ol className="prose__clauses">
            <li>拼团的成团人数在 2～10 人之间，以活动页面为准；团长付款后拼团即创建，有效期为 24 小时。</li>
            <li>参团者进入支付时，我们为其保留名额 {GROUP_PAY_MINUTES} 分钟；超时未付款的，名额自动释放。</li>
            <li>
              有效期内人数凑齐，拼团成功，全体成员的课程同时开通；有效期届满仍未凑齐的，拼团失败，所有已付款项自动原路退回。
            </li>
            <li>
              同一活动中，每位用户同时只能发起或参加一个未完成的拼团。拼团成员均为真实用户，我们不会虚构参团人数。
            </li>
          </ol>
        </section>

        <section aria-labelledby="service-gift">
          <h2 id="service-gift">赠课与优惠券</h2>
          <ol className="prose__clauses">
            <li>
              您可以购买课程赠送给他人。支付成功后会生成领取链接，对方通过链接领取后，课程开通在对方账号中；未被领取的赠课可以申请退款。
            </li>
            <li>
              优惠券和兑换券存放在“个人中心—我的卡包”，分为可用、已使用、已过期和已退回四种状态，使用条件和有效期以券面说明为准。
            </li>
            <li>使用了优惠券的订单被取消或退款后，该优惠券会退回您的卡包；已过有效期的，不再退回。</li>
          </ol>
        </section>

        <section aria-labelledby="service-refund">
          <h2 id="service-refund">退款</h2>
          <ol className="prose__clauses">
            <li>
              <strong>课程等虚拟商品：</strong>支付后 {REFUND_DAYS}{" "}
              天内，尚未开始学习（未观看试听以外的课时、未提交作业、未参加直播）的，可以申请全额退款。
            </li>
            <li>
              已开始学习或超过 {REFUND_DAYS}{" "}
              天的课程，原则上不予退款；因我们的原因无法继续提供服务的，按未提供部分的比例退款。
            </li>
            <li>
              退款申请在“个人中心—我的订单”中提交，审核通过后按原支付渠道退回，到账时间以支付渠道为准。退款处理期间，订单状态显示为“退款中”，完成后显示为“已退款”或“部分退款”。
            </li>
            <li>通过金币或笔山兑换获得的物品和课程，退换规则以兑换页面的说明为准。</li>
          </ol>
        </section>

        <section aria-labelledby="service-change">
          <h2 id="service-change">服务的变更与终止</h2>
          <ol className="prose__clauses">
            <li>我们可能为提高教学质量而调整课程的编排或更新课时内容，调整不会减少您已购课程的核心内容。</li>
            <li>如因特殊情况需要停止某门课程的服务，我们会提前通知已购买的学员，并按未提供部分的比例退款。</li>
          </ol>
        </section>

        <section aria-labelledby="service-contact">
          <h2 id="service-contact">联系我们</h2>
          <ol className="prose__clauses">
            <li>
              对服务有疑问或需要售后帮助，请拨打 <a href={`tel:${servicePhone}`}>{servicePhone}</a>（每日
              9:00–21:00），或发送邮件至 <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>。
            </li>
          </ol>
        </section>
      </div>
    </Page>
  );
}
