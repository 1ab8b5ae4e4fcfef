/** 隐私政策: what personal data we collect, why, for how long, who sees it, and the learner's rights. */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";
import { DELETION_COOLING_DAYS } from "../../../shared/contracts/me";

export default function PrivacyPage() {
  const { siteName } = useRootData();
  return (
    <Page
      lead={`${siteName}只收集提供学习服务所必需的个人信息。本政策说明我们收集什么、为什么收集、保存多久，以及你可以怎样管理它们。`}
    >
      <div className="prose prose--numbered">
        <WhatWeCollectAndShare />

        <RetentionAndRights />
      </div>
    </Page>
  );
}

/** What is collected, why, and with whom it is shared. */
function WhatWeCollectAndShare() {
  return (
    <>
      <section aria-labelledby="privacy-collect">
        <h2 id="privacy-collect">我们收集的信息</h2>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">信息</th>
              <th scope="col">什么时候收集</th>
              <th scope="col">用来做什么</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>手机号码</td>
              <td>用手机号注册、登录或绑定时</td>
              <td>识别账号、发送验证码、重要的订单与课程通知</td>
            </tr>
            <tr>
              <td>电子邮箱</td>
              <td>用邮箱注册、登录或绑定时</td>
              <td>识别账号、发送验证码、找回账号</td>
            </tr>
            <tr>
              <td>扫码登录身份</td>
              <td>使用即时通讯应用扫码登录或绑定时</td>
              <td>该应用提供的账号标识、昵称和头像，用于登录和显示</td>
            </tr>
            <tr>
              <td>个人资料</td>
              <td>你在“个人资料”中主动填写时</td>
              <td>昵称、头像、性别、地区、简介，用于在课堂、作业和直播间中显示</td>
            </tr>
            <tr>
              <td>设备与日志信息</td>
              <td>访问网站时自动产生</td>
              <td>浏览器类型与版本、操作系统、IP 地址、访问时间，用于账号安全、登录设备管理、浏览器兼容和故障排查</td>
            </tr>
            <tr>
              <td>作业照片</td>
              <td>提交作业或练字日记时</td>
              <td>供老师批改、供你本人回看；经你同意后在作业墙展示</td>
            </tr>
            <tr>
              <td>学习记录</td>
              <td>看课、上直播、打卡、交作业时</td>
              <td>观看进度与倍速、直播出勤与签到、直播间发言、打卡记录，用于续播、学习日历、金币奖励和教学改进</td>
            </tr>
            <tr>
              <td>订单与收货信息</td>
              <td>下单和购买实物商品时</td>
              <td>订单内容、金额、支付状态，以及收件人、电话和地址，用于完成交易、发货和售后</td>
            </tr>
          </tbody>
        </table>
        <ol className="prose__clauses">
          <li>我们不会收集你的身份证件号码、银行卡号和支付密码。支付由支付机构完成，我们只接收支付结果。</li>
          <li>
            我们使用浏览器存储（Cookie
            和本地存储）来保持登录状态、记住页面滚动位置和界面设置。这些信息不用于跨网站追踪你。
          </li>
        </ol>
      </section>

      <section aria-labelledby="privacy-share">
        <h2 id="privacy-share">我们如何共享信息</h2>
        <ol className="prose__clauses">
          <li>
            <strong>我们不会出售你的个人信息。</strong>只有在以下必要情况下，才会在最小范围内向第三方提供：
            <ul>
              <li>短信和邮件服务商：为向你发送验证码和通知，提供手机号或邮箱；</li>
              <li>支付机构：为完成付款和退款，提供订单号和金额；</li>
              <li>物流公司：为寄送实物商品，提供收件人、电话和地址；</li>
              <li>云存储与云服务商：为存储作业照片和运行网站，在受约束的条件下处理数据；</li>
              <li>法律法规要求，或有权机关依法要求提供时。</li>
            </ul>
          </li>
          <li>我们会与上述合作方约定数据保护责任，要求其仅为约定目的处理信息，不得另作他用。</li>
          <li>老师只能看到其所授课程学员的昵称、头像、作业和学习记录，看不到你的手机号、邮箱和收货地址。</li>
        </ol>
      </section>
    </>
  );
}

/** How long it is kept, how it is secured, the learner's rights, minors, changes and contact. */
function RetentionAndRights() {
  const { serviceEmail, servicePhone } = useRootData();
  return (
    <>
      <section aria-labelledby="privacy-retention">
        <h2 id="privacy-retention">保存期限</h2>
        <ol className="prose__clauses">
          <li>账号信息、学习记录、作业照片和练字日记，在你的账号存续期间保存。</li>
          <li>
            你申请注销账号后，经过 {DELETION_COOLING_DAYS} 天冷静期，我们会删除你的个人信息或对其匿名化处理，详见
            <Link to="/deletion-agreement">《账号注销协议》</Link>。
          </li>
          <li>
            订单和交易记录，按照《中华人民共和国电子商务法》的要求，自交易完成之日起保存不少于三年；网络日志按照法律要求保存不少于六个月。期满后删除或匿名化处理。
          </li>
        </ol>
      </section>

      <section aria-labelledby="privacy-security">
        <h2 id="privacy-security">我们如何保护信息</h2>
        <ol className="prose__clauses">
          <li>网站全程使用加密连接传输数据；密码经不可逆的方式处理后保存，任何人都无法看到原文。</li>
          <li>我们按最小权限原则控制内部访问，只有因工作需要的人员才能接触个人信息，并留有操作记录。</li>
          <li>
            如果不幸发生个人信息安全事件，我们会按照法律要求及时告知你事件的情况、可能的影响和我们采取的措施，并向有关部门报告。
          </li>
        </ol>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">你的权利</h2>
        <ol className="prose__clauses">
          <li>
            <strong>查阅和更正：</strong>
            你可以在“个人中心”查看和修改个人资料、绑定信息和收货地址，查看订单、学习记录和金币笔山明细。
          </li>
          <li>
            <strong>删除：</strong>你可以删除自己的练字日记和未批改的作业，可以随时取消作品在作业墙上的公开展示。
          </li>
          <li>
            <strong>撤回同意：</strong>
            你可以解除手机、邮箱或扫码登录的绑定（至少保留一种登录方式），可以关闭非必要的通知。撤回同意不影响此前基于同意已进行的处理。
          </li>
          <li>
            <strong>获取副本：</strong>你可以通过客服邮箱申请获取你的个人信息副本。
          </li>
          <li>
            <strong>注销账号：</strong>你可以在“个人中心—账号与安全”中申请注销。
          </li>
          <li>对以上请求，我们会在核实你的身份后 15 个工作日内答复。</li>
        </ol>
      </section>

      <section aria-labelledby="privacy-minors">
        <h2 id="privacy-minors">未成年人</h2>
        <ol className="prose__clauses">
          <li>
            我们的服务面向成年人和青少年学习者。不满十四周岁的儿童，须在父母或其他监护人同意并指导下使用本服务；监护人可以通过客服邮箱查阅、更正或删除孩子的信息。
          </li>
        </ol>
      </section>

      <section aria-labelledby="privacy-changes">
        <h2 id="privacy-changes">本政策的更新</h2>
        <ol className="prose__clauses">
          <li>
            本政策可能随服务变化而更新。更新后的版本会在本页面公布；收集信息的种类、用途发生重大变化时，我们会通过站内通知等显著方式告知你，必要时重新征得你的同意。
          </li>
        </ol>
      </section>

      <section aria-labelledby="privacy-contact">
        <h2 id="privacy-contact">联系我们</h2>
        <ol className="prose__clauses">
          <li>
            对本政策或你的个人信息有任何疑问、意见或投诉，请发送邮件至{" "}
            <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>
            ，或拨打客服电话 <a href={`tel:${servicePhone}`}>{servicePhone}</a>（每日 9:00–21:00）。
          </li>
        </ol>
      </section>
    </>
  );
}
