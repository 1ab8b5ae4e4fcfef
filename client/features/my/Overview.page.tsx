/**
 * 个人中心: who the learner is (avatar, nickname, joined date), what the account holds today
 * (unread notices, courses, coin and bishan balances, the state of its security), today's
 * check-in, the next live lesson, homework to hand in, study time per week and the courses
 * learned most recently.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { categoryTones } from "../../../shared/contracts/catalogue";
import { type MyCourse, type MyCourses } from "../../../shared/contracts/courses";
import { type Me, genderLabels } from "../../../shared/contracts/me";
import { coverOf } from "../../../shared/media";
import { Page } from "../../components/Page";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { AccountRow, AccountSection, Avatar } from "./account-parts";
import { ContinueLink, LastLearned, ProgressBar } from "./CourseProgress";
import { OverviewToday } from "./OverviewToday";
import { formatDate } from "../../../shared/format";

/** How many courses 最近在学 shows. */
const RECENT_COURSES = 3;

export async function loader({ env, signal }: PageLoaderArgs) {
  // The overview still shows the account when the courses or the wallet cannot be read.
  const orNull = (err: unknown) => {
    if (signal.aborted) throw err;
    return null;
  };
  const [me, courses, wallet, overview] = await Promise.all([
    env.api("/api/me", { signal, schema: import("../../../shared/contracts/me").then((m) => m.meSchema) }),
    env
      .api("/api/courses/mine", {
        signal,
        schema: import("../../../shared/contracts/courses").then((m) => m.myCoursesSchema),
      })
      .catch(orNull),
    env
      .api("/api/wallet", { signal, schema: import("../../../shared/contracts/wallet").then((m) => m.walletSchema) })
      .catch(orNull),
    env
      .api("/api/me/overview", { signal, schema: import("../../../shared/contracts/me").then((m) => m.overviewSchema) })
      .catch(orNull),
  ]);
  return { me, courses, wallet, overview, meta: { title: "个人中心", noindex: true } };
}

function RecentCourse({ item }: { item: MyCourse }) {
  return (
    <li className="recent-course">
      <Link to={`/course/${item.course.id}`} className="recent-course__cover" tabIndex={-1} aria-hidden="true">
        <LazyImage
          src={coverOf(item.course, categoryTones[item.course.category], "landscape")}
          alt=""
          width={160}
          height={90}
        />
      </Link>
      <div>
        <h3 className="recent-course__title">
          <Link to={`/course/${item.course.id}`}>{item.course.title}</Link>
        </h3>
        <ProgressBar item={item} />
        <LastLearned item={item} />
      </div>
      <ContinueLink item={item} />
    </li>
  );
}

function RecentCourses({ courses }: { courses: MyCourses | null }) {
  return (
    <AccountSection
      id="recent-courses"
      title="最近在学"
      lead={
        courses === null
          ? "课程暂时没能加载，请稍后刷新再试。"
          : courses.total
            ? "从上次停下的地方接着学。"
            : "还没有在学的课程：报名一门免费课，或者先去试看。"
      }
      actions={
        <Link className="button button--small" to={courses?.total ? "/my/allcourse" : "/product/list"}>
          {courses?.total ? "全部课程" : "去选课"}
        </Link>
      }
    >
      {courses?.items.length ? (
        <ul className="recent-courses">
          {courses.items.slice(0, RECENT_COURSES).map((item) => (
            <RecentCourse key={item.course.id} item={item} />
          ))}
        </ul>
      ) : null}
    </AccountSection>
  );
}

/** What the account's security looks like at a glance, worst first. */
function securityAdvice(me: Me): string | null {
  const p = me.profile;
  if (!p.hasPassword && !p.email) return "还没有设置登录密码，也没有绑定邮箱：换了手机号就可能无法登录。";
  if (!p.hasPassword) return "还没有设置登录密码，建议设置一个，以便用邮箱和密码登录。";
  if (!p.deviceProtection) return "可以开启登录设备保护：在新设备上登录时需要验证码确认。";
  return null;
}

export default function OverviewPage() {
  const { me, courses, wallet, overview } = useLoaderData<typeof loader>();
  const p = me.profile;
  const advice = securityAdvice(me);
  const details = [p.gender ? genderLabels[p.gender] : null, p.region].filter(Boolean).join(" · ");

  return (
    <Page className="account-page">
      {p.status === "deleting" && p.deletionDueAt ? (
        <div className="notice notice--warning" role="note">
          <p className="notice__title">账号正在注销冷静期</p>
          <p>
            账号将于 {formatDate(p.deletionDueAt)} 注销。如果改变主意，可以在{" "}
            <Link to="/my/security#deletion">账号与安全</Link> 中撤销申请。
          </p>
        </div>
      ) : null}

      <section className="card profile-card" aria-label="个人资料">
        <Avatar url={p.avatarUrl} nickname={p.nickname} />
        <div className="profile-card__text">
          <h2 className="profile-card__name">{p.nickname}</h2>
          <p className="profile-card__meta">
            {formatDate(p.createdAt)}加入{details ? ` · ${details}` : ""}
          </p>
          <p className="profile-card__intro">{p.intro ?? "还没有写个人简介。"}</p>
        </div>
        <div className="profile-card__actions">
          <Link className="button button--small" to="/my/information">
            编辑资料
          </Link>
        </div>
      </section>

      <ul className="stat-grid" aria-label="我的账户">
        <li className="card stat-tile">
          <span className="stat-tile__label">未读通知</span>
          <span className="stat-tile__value">{me.counts.unreadNotices}</span>
          <span className="stat-tile__note">点页首的“通知”查看</span>
        </li>
        <li className="card stat-tile">
          <span className="stat-tile__label">我的课程</span>
          <span className="stat-tile__value">{courses ? courses.total : "—"}</span>
          <span className="stat-tile__note">
            <Link to="/my/allcourse">{courses ? "查看我的课程" : "暂时没能加载"}</Link>
          </span>
        </li>
        <li className="card stat-tile">
          <span className="stat-tile__label">金币</span>
          <span className="stat-tile__value" data-testid="coin-balance">
            {wallet ? wallet.balances.coin.toLocaleString("zh-CN") : "—"}
          </span>
          <span className="stat-tile__note">
            <Link to="/my/exchange">
              {wallet ? (wallet.checkedInToday ? "今日已签到 · 去兑换" : "去签到、兑换") : "暂时没能加载"}
            </Link>
          </span>
        </li>
        <li className="card stat-tile">
          <span className="stat-tile__label">笔山</span>
          <span className="stat-tile__value" data-testid="bishan-balance">
            {wallet ? wallet.balances.bishan.toLocaleString("zh-CN") : "—"}
          </span>
          <span className="stat-tile__note">
            <Link to="/my/exchange/record/bishan">{wallet ? "笔山记录" : "暂时没能加载"}</Link>
          </span>
        </li>
      </ul>

      <OverviewToday overview={overview} />

      <RecentCourses courses={courses} />

      <AccountSection
        title="账号安全"
        lead={advice ?? "账号的安全设置已经比较完善。"}
        actions={
          <Link className="button button--small" to="/my/security">
            管理账号与安全
          </Link>
        }
      >
        <dl className="account-rows">
          <AccountRow label="手机号" value={p.phone ?? "未绑定"} />
          <AccountRow label="邮箱" value={p.email ?? "未绑定"} />
          <AccountRow label="登录密码" value={p.hasPassword ? "已设置" : "未设置"} />
          <AccountRow label="登录设备保护" value={p.deviceProtection ? "已开启" : "未开启"} />
        </dl>
      </AccountSection>
    </Page>
  );
}
