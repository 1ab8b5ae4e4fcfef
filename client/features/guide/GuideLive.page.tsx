/** 直播课指南: booking, entering the room, check-in, etiquette, attendance and playback. */
import { Link } from "react-router-dom";
import { useRootData } from "../../app/root-data";
import { Page } from "../../components/Page";

/** Section anchors: other pages link straight to them (e.g. /guide/live#playback). */
const sections = [
  { id: "booking", title: "报名与预约" },
  { id: "prepare", title: "上课前的准备" },
  { id: "enter", title: "进入直播间" },
  { id: "checkin", title: "签到" },
  { id: "etiquette", title: "聊天礼仪" },
  { id: "attendance", title: "出勤规则" },
  { id: "playback", title: "回放" },
  { id: "faq", title: "常见问题" },
] as const;

export default function GuideLivePage() {
  const { serviceEmail, servicePhone } = useRootData();
  return (
    <Page lead="看老师现场写字、当场提问、听作业点评：直播课是离老师最近的时刻。下面是上好一节直播课需要知道的事。">
      <div className="article-layout">
        <div className="prose">
          <section id="booking" aria-labelledby="live-booking">
            <h2 id="live-booking">一、报名与预约</h2>
            <p>
              直播课只对已报名的学员开放。在“直播”页或课程详情页找到想上的课，购买或报名后，这门课的每一场直播都会自动加入你的“学习日历”。
            </p>
            <p>
              每场直播都有一个状态：<strong>未开始</strong>、<strong>直播中</strong>、<strong>已结束</strong>、
              <strong>回放生成中</strong>和<strong>可回放</strong>；如果老师因故取消，状态会变为<strong>已取消</strong>
              ，并通知到每一位报名的学员。
            </p>
          </section>

          <section id="prepare" aria-labelledby="live-prepare">
            <h2 id="live-prepare">二、上课前的准备</h2>
            <ul>
              <li>
                <strong>电脑和浏览器：</strong>使用新版 Chrome、Edge、Firefox 或
                Safari，国产浏览器请切换到“极速模式”。详见
                <Link to="/bowser">支持的浏览器</Link>。
              </li>
              <li>
                <strong>网络：</strong>尽量使用稳定的宽带或无线网络，上课时关闭正在下载的程序。
              </li>
              <li>
                <strong>声音：</strong>确认电脑没有静音，戴上耳机能听得更清楚。
              </li>
              <li>
                <strong>笔墨纸：</strong>提前铺好毡子、研好墨或倒好墨汁，准备好当天要练的字帖，跟着老师边看边写。
              </li>
            </ul>
          </section>

          <section id="enter" aria-labelledby="live-enter">
            <h2 id="live-enter">三、进入直播间</h2>
            <p>开课前，可以从以下任一入口进入：</p>
            <ul>
              <li>“学习日历”中当天的直播课；</li>
              <li>“个人中心—我的课程”中对应课程的直播课时；</li>
              <li>“直播”页上状态为“直播中”的课程。</li>
            </ul>
            <p>
              直播间会在新的浏览器窗口中打开，原来的页面不受影响。如果浏览器拦截了新窗口，请在地址栏右侧允许本站弹出窗口后再点一次。
            </p>
          </section>

          <section id="checkin" aria-labelledby="live-checkin">
            <h2 id="live-checkin">四、签到</h2>
            <p>
              老师在课上发起签到后，直播间里会出现“签到”按钮，点一下即可完成。签到记录会留在你的学习记录里，方便老师了解大家的到课情况。
            </p>
            <p>签到只是点名，不代替出勤：是否计为出勤，以下面的观看时长规则为准。</p>
          </section>

          <section id="etiquette" aria-labelledby="live-etiquette">
            <h2 id="live-etiquette">五、聊天礼仪</h2>
            <p>直播间的聊天区是大家共同的课堂，请：</p>
            <ul>
              <li>提问时说清楚是哪一个字、哪一笔，老师更容易回答；</li>
              <li>围绕课程内容交流，不发广告、链接和与课程无关的内容；</li>
              <li>不刷屏，同一个问题不反复发送，老师会按顺序回答；</li>
              <li>尊重老师和同学，不评论他人的外貌、作品之外的私事，不发表攻击性言论。</li>
            </ul>
            <p>
              违反礼仪的发言可能被撤回，情节严重的可能被禁言。直播间的发言规则同样适用
              <Link to="/agreement">《用户协议》</Link>中的使用规范。
            </p>
          </section>

          <section id="attendance" aria-labelledby="live-attendance">
            <h2 id="live-attendance">六、出勤规则</h2>
            <p>
              在一场直播中，<strong>在直播间累计观看满 10 分钟</strong>
              ，即计为出勤。中途因网络断开重新进入的，时长会累计计算。
            </p>
            <p>出勤记录会显示在学习日历上，出勤也可以获得金币奖励（每天有获得上限）。观看回放不计为直播出勤。</p>
          </section>

          <section id="playback" aria-labelledby="live-playback">
            <h2 id="live-playback">七、回放</h2>
            <p>
              直播结束后，录像会自动整理成回放，这段时间状态显示为“回放生成中”。生成完成后状态变为“可回放”，已报名的学员可以在“回放”页、课程详情页或学习日历中打开观看。
            </p>
            <p>回放和录播课一样，可以调节倍速，观看进度会自动保存。回放可以观看多久，以所报课程页面的说明为准。</p>
          </section>

          <section id="faq" aria-labelledby="live-faq">
            <h2 id="live-faq">八、常见问题</h2>
            <h3>画面卡顿或加载不出来？</h3>
            <p>
              先刷新直播间页面；仍然不行，请换用有线网络，或关闭占用网络的其他程序。使用旧版浏览器时也可能无法播放。
            </p>
            <h3>有画面没有声音？</h3>
            <p>检查电脑和浏览器标签页是否被静音；部分浏览器需要在页面上点击一次才会开始播放声音。</p>
            <h3>错过了直播怎么办？</h3>
            <p>等回放生成后观看即可。有问题可以在下一次直播时提出，或在作业中写给老师。</p>
            <h3>还是解决不了？</h3>
            <p>
              请联系客服：电话 <a href={`tel:${servicePhone}`}>{servicePhone}</a>（每日 9:00–21:00），邮箱{" "}
              <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>
              。说明课程名称、上课时间和所用的浏览器，我们能更快帮你找到原因。
            </p>
          </section>
        </div>
        <aside className="article-aside article-aside--toc">
          <nav aria-labelledby="live-toc">
            <h2 id="live-toc">本页目录</h2>
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
