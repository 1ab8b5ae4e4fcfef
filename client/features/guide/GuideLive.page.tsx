/** 直播课指南: booking, entering the room, check-in, etiquette, attendance and playback. */
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { CHAT_MAX_CHARS, CHAT_RATE } from "../../../shared/contracts/live";
import { Page } from "../../components/Page";

export function loader() {
  return {
    meta: {
      title: "直播课指南",
      description:
        "墨池课堂直播课怎么上：预约与开播提醒、进入直播间、聊天规则、签到、满 10 分钟计为出勤、回放，以及设备和网络建议。",
    },
  };
}

/** Section anchors: other pages link straight to them (e.g. /guide/live#playback). */
const sections = [
  { id: "booking", title: "报名与预约" },
  { id: "prepare", title: "上课前的准备" },
  { id: "enter", title: "进入直播间" },
  { id: "checkin", title: "签到" },
  { id: "etiquette", title: "聊天规则与礼仪" },
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
              课程的直播只对报名了这门课的学员开放；标有“公开课”的直播人人都能看。在
              <Link to="/live">“直播”页</Link>
              可以按“今日”“即将开始”“直播中”“已结束”查看所有场次。
            </p>
            <p>
              对还没开始的直播点<strong>预约</strong>
              ，开播的那一刻会在站内通知里提醒你（页面右上角的铃铛），每场只提醒一次。
              预约可以随时取消，直播开始后就不需要再预约了。
            </p>
            <p>
              每场直播都有一个状态：<strong>未开始</strong>、<strong>直播中</strong>、<strong>已结束</strong>、
              <strong>回放生成中</strong>和<strong>可回放</strong>，到点自动切换；如果老师因故取消，状态会变为
              <strong>已取消</strong>。
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
                <strong>网络：</strong>尽量使用稳定的宽带或无线网络（下行 2 Mbps
                以上即可流畅观看），上课时关闭正在下载的程序；公司或学校网络如果打不开直播画面，可以换用手机热点试试。
              </li>
              <li>
                <strong>设备：</strong>建议用电脑观看，屏幕大、看笔画更清楚；不需要摄像头和麦克风，提问用聊天区即可。
              </li>
              <li>
                <strong>声音：</strong>确认电脑没有静音，戴上耳机能听得更清楚。
              </li>
              <li>
                <strong>笔墨纸：</strong>提前铺好毡子、研好墨或倒好墨汁，准备好当天要练的字帖，跟着老师边看边写。
              </li>
            </ul>
            <p>建议开播前 5 分钟进入直播间，确认画面和声音正常。</p>
          </section>

          <section id="enter" aria-labelledby="live-enter">
            <h2 id="live-enter">三、进入直播间</h2>
            <p>
              在“直播”页点<strong>进入直播间</strong>
              ，直播间会在新的浏览器窗口中打开，原来的页面不受影响。如果浏览器拦截了新窗口，请在地址栏右侧允许本站弹出窗口后再点一次。
            </p>
            <ul>
              <li>开播前进入，会看到按服务器时间计算的倒计时，到点自动切换到直播画面，不用刷新；</li>
              <li>
                为了能自动播放，直播画面开始时是静音的，点画面下方的<strong>开启声音</strong>就能听到老师讲解；
              </li>
              <li>直播间右侧是聊天区，画面下方显示当前在线人数、签到按钮和你的观看时长；</li>
              <li>没有登录时只能看到场次介绍，登录并报名课程后才能观看和参与互动。</li>
            </ul>
          </section>

          <section id="checkin" aria-labelledby="live-checkin">
            <h2 id="live-checkin">四、签到</h2>
            <p>
              直播进行时，直播间里的<strong>签到</strong>
              按钮可以点击，点一下即完成，按钮会变成“已签到”和签到时间。每场只需签到一次，重复点击不会重复记录。
            </p>
            <p>签到只是点名，不代替出勤：是否计为出勤，以下面的观看时长规则为准。</p>
          </section>

          <section id="etiquette" aria-labelledby="live-etiquette">
            <h2 id="live-etiquette">五、聊天规则与礼仪</h2>
            <p>
              直播中可以在聊天区发言，按 Enter 发送。每条消息 1–{CHAT_MAX_CHARS} 个字；为了不刷屏，每人每{" "}
              {CHAT_RATE.windowSeconds} 秒最多发 {CHAT_RATE.max}{" "}
              条，发得太快会提示稍等几秒。直播开始前和结束后聊天区只能看，不能发言。
            </p>
            <p>聊天区是大家共同的课堂，请：</p>
            <ul>
              <li>提问时说清楚是哪一个字、哪一笔，老师更容易回答；</li>
              <li>围绕课程内容交流，不发广告、链接和与课程无关的内容；</li>
              <li>同一个问题不反复发送，老师会按顺序回答；</li>
              <li>尊重老师和同学，不评论作品之外的私事，不发表攻击性言论。</li>
            </ul>
            <p>
              老师的发言会标上“老师”。违反礼仪的发言可能被撤回，情节严重的可能被禁言。直播间的发言规则同样适用
              <Link to="/agreement">《用户协议》</Link>中的使用规范。
            </p>
          </section>

          <section id="attendance" aria-labelledby="live-attendance">
            <h2 id="live-attendance">六、出勤规则</h2>
            <p>
              在一场直播中，<strong>在直播间累计观看满 10 分钟</strong>，即计为出勤，直播间会显示“本场已计为出勤”。
            </p>
            <ul>
              <li>
                只有直播画面正在播放、并且直播间窗口在前台时才计时：切到别的标签页或最小化窗口时暂停计时，回来后继续累计；
              </li>
              <li>时长由服务器每分钟记录一次，中途因网络断开重新进入的，之前的时长不会丢失；</li>
              <li>同一场直播在多个窗口里打开，时长也不会重复计算；</li>
              <li>观看回放不计为直播出勤。</li>
            </ul>
            <p>出勤记录会显示在学习日历上，出勤也可以获得金币奖励（每天有获得上限）。</p>
          </section>

          <section id="playback" aria-labelledby="live-playback">
            <h2 id="live-playback">七、回放</h2>
            <p>
              直播结束后，录像会自动整理成回放，这段时间状态显示为“回放生成中”，通常在结束后 2
              小时内完成。生成后状态变为“可回放”，可以在
              <Link to="/live?tab=ended">“直播—已结束”</Link>、<Link to="/playback">“回放”页</Link>或直播间里打开观看。
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
            <p>直播画面默认静音，点画面下方的“开启声音”；再检查电脑和浏览器标签页是否被静音。</p>
            <h3>聊天区显示“连接中断”？</h3>
            <p>网络波动时聊天会自动重新连接，并补上断开期间的消息；长时间连不上时，点“重试”或刷新页面。</p>
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
        <aside className="card article-aside article-aside--toc">
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
