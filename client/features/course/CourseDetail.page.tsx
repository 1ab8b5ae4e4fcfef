/**
 * One course (/course/:id): cover, price and the way in (free enrolment, continue learning,
 * buying, a group buy, buying it as a gift; a gift's claim link opens the giveaway dialog here), the outline with trial and
 * locked lessons, what the course covers, its live sessions, the teacher, and the books and
 * stationery that go with it. The public detail is cached; a signed-in learner's state
 * (enrolment, locks, progress) is fetched beside it and laid over the outline.
 */
import { useCallback, useEffect, useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import { coursePurchaseRule } from "../../../shared/action-rules";
import { courseCategoryName } from "../../../shared/catalogue";
import { categoryTones, courseKinds, courseLevels, type LiveSummary } from "../../../shared/contracts/catalogue";
import { type CourseDetail, type CourseViewer } from "../../../shared/contracts/courses";
import { coverOf, coverSizes, coverUrl } from "../../../shared/media";
import { formatMoney } from "../../../shared/money";
import { useRootData } from "../../lib/root-data";
import { BookCard, CommodityCard, LiveCard, Price } from "../../components/cards/CatalogueCards";
import { LoginDialog } from "../../components/LoginDialog";
import { GiftEntry, GiveawayFromLink } from "../../components/gifts/GiftEntry";
import { GroupBuyEntry } from "../../components/groupbuy/GroupBuyEntry";
import { useBuy } from "../../components/commerce/useBuy";
import { describeProblemLater } from "../../lib/problem-later";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./course.css";
import { formatMonthDay, formatMonthDayTime } from "../../../shared/format";
import { Outline } from "./course-outline";
import { courseJsonLd } from "./course-json-ld";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const coursesContract = () => import("../../../shared/contracts/courses");

interface DetailData {
  course: CourseDetail;
  /** The signed-in learner's state; null when anonymous or when it could not be loaded. */
  viewer: CourseViewer | null;
  viewerFailed: boolean;
}

/** A free course the visitor chose before signing in: enrolled once the signed-in page loads. */
const ENROL_AFTER_LOGIN_KEY = "mochi:enrol-after-login";

export async function loader({ params, env, signal }: PageLoaderArgs) {
  const id = params.id ?? "";
  let viewerFailed = false;
  const [course, viewer] = await Promise.all([
    env.api(`/api/courses/${id}`, { signal, schema: coursesContract().then((m) => m.courseDetailSchema) }),
    env.viewer
      ? env
          .api(`/api/courses/${id}/me`, { signal, schema: coursesContract().then((m) => m.courseViewerSchema) })
          .catch((err: unknown) => {
            if (signal.aborted) throw err;
            viewerFailed = true;
            return null;
          })
      : Promise.resolve(null),
  ]);
  const image = coverUrl(course.coverChar, categoryTones[course.category], "landscape");
  return {
    course,
    viewer,
    viewerFailed,
    meta: {
      title: course.title,
      description: `${course.subtitle}。${course.teacherName}老师主讲，共 ${course.lessonsCount} 课时，${courseKinds[course.kind]}，${course.priceCents === 0 ? "免费学习" : formatMoney(course.priceCents)}。`,
      image,
      jsonLd: courseJsonLd(course, image),
    },
  };
}

function CourseActions({ course, viewer, viewerFailed }: DetailData) {
  const { viewer: signedIn } = useRootData();
  const revalidator = useRevalidator();
  const [loginOpen, setLoginOpen] = useState(false);
  const [enrolling, setEnrolling] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const purchase = useBuy({ itemType: "course", itemId: course.id, label: course.title });

  const enrol = useCallback(async () => {
    setEnrolling(true);
    setProblem(null);
    try {
      await browserApi(`/api/courses/${course.id}/enrol`, {
        method: "POST",
        body: {},
        schema: coursesContract().then((m) => m.enrolResultSchema),
      });
      await revalidator.revalidate();
    } catch (err) {
      setProblem((await describeProblemLater(err)).message);
    } finally {
      setEnrolling(false);
    }
  }, [course.id, revalidator]);

  // Back from the login dialog with the free course chosen before it: enrol now.
  const pendingEnrol = signedIn !== null && viewer !== null && !viewer.enrolled && course.priceCents === 0;
  useEffect(() => {
    if (!pendingEnrol) return;
    if (window.sessionStorage.getItem(ENROL_AFTER_LOGIN_KEY) !== String(course.id)) return;
    window.sessionStorage.removeItem(ENROL_AFTER_LOGIN_KEY);
    void enrol();
  }, [pendingEnrol, course.id, enrol]);

  const startFree = () => {
    if (!signedIn) {
      window.sessionStorage.setItem(ENROL_AFTER_LOGIN_KEY, String(course.id));
      setLoginOpen(true);
      return;
    }
    void enrol();
  };

  const buyRule = viewer ? coursePurchaseRule({ teaches: viewer.teaches, enrolled: viewer.enrolled }) : null;
  let actions;
  if (viewer?.enrolled) {
    const target = viewer.continueLessonId ?? course.firstLessonId;
    actions = (
      <>
        {target ? (
          <Link className="button button--primary course-hero__cta" to={`/video/${target}`}>
            继续学习
          </Link>
        ) : (
          <span className="course-hero__note">已报名，课时上线后即可学习</span>
        )}
        {/* A learner who has the course can still give it to a friend. */}
        {course.priceCents > 0 ? <GiftEntry course={course} /> : null}
      </>
    );
  } else if (course.priceCents === 0) {
    actions = (
      <button
        type="button"
        className="button button--primary course-hero__cta"
        onClick={startFree}
        disabled={enrolling}
      >
        {enrolling ? "正在报名…" : "免费学习"}
      </button>
    );
  } else if (buyRule && !buyRule.ok) {
    // The course's own teacher: the purchase would be refused, so it is offered disabled with the reason.
    actions = (
      <>
        <button type="button" className="button course-hero__cta" disabled aria-describedby="course-buy-why">
          立即购买
        </button>
        <span className="action-reason" id="course-buy-why">
          {buyRule.reason}
        </span>
        {course.firstLessonId ? (
          <Link className="button course-hero__cta" to={`/video/${course.firstLessonId}`}>
            查看课时
          </Link>
        ) : null}
      </>
    );
  } else {
    actions = (
      <>
        <button
          type="button"
          className="button button--primary course-hero__cta"
          onClick={purchase.buy}
          disabled={purchase.busy || !!purchase.off}
        >
          {purchase.busy ? "正在下单…" : "立即购买"}
        </button>
        <GroupBuyEntry course={course} />
        <GiftEntry course={course} />
        {course.firstTrialLessonId ? (
          <Link className="button course-hero__cta" to={`/video/${course.firstTrialLessonId}`}>
            试看
          </Link>
        ) : null}
      </>
    );
  }

  return (
    <div className="course-hero__actions">
      <div className="course-hero__buttons">{actions}</div>
      {viewer?.enrolled && viewer.lastLearnedAt ? (
        <p className="course-hero__note">上次学习：{formatMonthDayTime(viewer.lastLearnedAt)}</p>
      ) : null}
      {viewerFailed ? (
        <p className="course-hero__problem" role="alert">
          你的学习进度暂时没能加载，请刷新页面再试。
        </p>
      ) : null}
      {problem ? (
        <p className="course-hero__problem" role="alert">
          {problem}
        </p>
      ) : null}
      {purchase.off && course.priceCents > 0 ? (
        <p className="course-hero__note" data-testid="buying-off">
          {purchase.off}
        </p>
      ) : null}
      {purchase.problem ? (
        <p className="course-hero__problem" role="alert">
          {purchase.problem}
        </p>
      ) : null}
      {purchase.dialogs}
      {!signedIn ? (
        <LoginDialog
          open={loginOpen}
          onClose={() => {
            window.sessionStorage.removeItem(ENROL_AFTER_LOGIN_KEY);
            setLoginOpen(false);
          }}
        />
      ) : null}
      <GiveawayFromLink course={course} viewer={viewer} />
    </div>
  );
}

function Hero(props: DetailData) {
  const { course, viewer } = props;
  const size = coverSizes.landscape;
  return (
    <section className="card course-hero" aria-label="课程概要">
      <LazyImage
        src={coverOf(course, categoryTones[course.category], "landscape")}
        alt={`${course.title}封面`}
        width={size.width}
        height={size.height}
        className="course-hero__cover"
        priority
      />
      <div className="course-hero__body">
        <p className="course-hero__tags">
          <span className="course-tag course-tag--kind">{courseKinds[course.kind]}</span>
          <Link className="course-tag" to={`/product/list?category=${course.category}`}>
            {courseCategoryName(course.category)}
          </Link>
          <span className="course-tag">{courseLevels[course.level]}</span>
        </p>
        <dl className="course-hero__facts">
          <div>
            <dt>授课老师</dt>
            <dd>
              {course.teacher.name} · {course.teacher.title}
            </dd>
          </div>
          <div>
            <dt>课时</dt>
            <dd>{course.lessonsCount} 课时</dd>
          </div>
          <div>
            <dt>学员</dt>
            <dd>{course.learnersCount.toLocaleString("zh-CN")} 人在学</dd>
          </div>
          {course.campStartsOn ? (
            <div>
              <dt>开营</dt>
              <dd>{formatMonthDay(course.campStartsOn)}</dd>
            </div>
          ) : null}
        </dl>
        <p className="course-hero__price">
          {viewer?.enrolled ? (
            <span className="course-hero__enrolled">已报名</span>
          ) : (
            <Price cents={course.priceCents} originalCents={course.originalPriceCents} />
          )}
        </p>
        <CourseActions {...props} />
      </div>
    </section>
  );
}

function LiveSchedule({ sessions }: { sessions: LiveSummary[] }) {
  return (
    <section className="course-section" aria-labelledby="course-live">
      <h2 className="section-title" id="course-live">
        直播安排
      </h2>
      <p className="section-lead">开播前可以预约提醒，结束后可看回放。</p>
      <ul className="course-cards course-cards--3">
        {sessions.map((live) => (
          <li key={live.id}>
            <LiveCard
              live={live}
              action={
                live.state === "cancelled" ? (
                  <span className="course-hero__note">本次直播已取消</span>
                ) : (
                  <Link
                    className={`button button--small${live.state === "live" ? " button--primary" : ""}`}
                    to={`/live/${live.id}`}
                  >
                    {live.state === "live" ? "进入直播间" : live.state === "replay" ? "看回放" : "查看详情"}
                  </Link>
                )
              }
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function CourseDetailPage() {
  const data = useLoaderData<typeof loader>();
  const { course } = data;
  const paragraphs = course.introduction.split(/\n{2,}/).filter(Boolean);
  return (
    <Page className="page--course" title={course.title} lead={course.subtitle}>
      <Hero {...data} />
      <div className="course-layout">
        <div className="course-layout__main">
          <Outline course={course} viewer={data.viewer} />
          <section className="course-section" aria-labelledby="course-intro">
            <h2 className="section-title" id="course-intro">
              课程介绍
            </h2>
            <div className="course-intro">
              {paragraphs.length ? paragraphs.map((p, i) => <p key={i}>{p}</p>) : <p>{course.summary}</p>}
            </div>
          </section>
          {course.outcomes.length ? (
            <section className="course-section" aria-labelledby="course-outcomes">
              <h2 className="section-title" id="course-outcomes">
                你将练习
              </h2>
              <ul className="course-outcomes">
                {course.outcomes.map((outcome) => (
                  <li key={outcome}>{outcome}</li>
                ))}
              </ul>
            </section>
          ) : null}
          {course.liveSessions.length ? <LiveSchedule sessions={course.liveSessions} /> : null}
        </div>
        <aside className="course-layout__aside" aria-label="授课老师">
          <section className="card teacher-card">
            <span className="seal seal--lg seal--upright teacher-card__seal" aria-hidden="true">
              {course.teacher.portraitChar}
            </span>
            <h2 className="teacher-card__name">{course.teacher.name}</h2>
            <p className="teacher-card__title">{course.teacher.title}</p>
            <p className="teacher-card__specialty">{course.teacher.specialty}</p>
            <p className="teacher-card__bio">{course.teacher.bio}</p>
          </section>
        </aside>
      </div>
      {course.relatedBooks.length ? (
        <section className="course-section" aria-labelledby="course-books">
          <h2 className="section-title" id="course-books">
            配套书籍
          </h2>
          <p className="section-lead">跟着课程临帖、读书，用得上的几本。</p>
          <ul className="course-cards course-cards--books">
            {course.relatedBooks.map((book) => (
              <li key={book.id}>
                <BookCard book={book} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {course.relatedCommodities.length ? (
        <section className="course-section" aria-labelledby="course-stationery">
          <h2 className="section-title" id="course-stationery">
            文房推荐
          </h2>
          <p className="section-lead">这门课用得上的笔、墨、纸与练习用品。</p>
          <ul className="course-cards course-cards--4">
            {course.relatedCommodities.map((commodity) => (
              <li key={commodity.id}>
                <CommodityCard commodity={commodity} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Page>
  );
}
