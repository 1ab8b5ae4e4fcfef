/**
 * The home page: the banner carousel, the eight course categories with their course counts,
 * popular and new courses, live lessons on now and next, new books and stationery, the learner
 * works wall, the teachers, and how learning here works. One call (/api/home) brings it all;
 * when it fails the categories and the guide still show, with a way to try again.
 */
import { useLoaderData, useNavigation, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import { type CourseCategoryKey, courseCategories } from "../../../shared/catalogue";
import { SITE_DESCRIPTION, SITE_NAME_DEFAULT } from "../../../shared/constants";
import type { Home } from "../../../shared/contracts/home";
import type { WallItem } from "../../../shared/contracts/homework";
import { normalizeError } from "../../../shared/errors";
import { useRootData } from "../../lib/root-data";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { hydrateLater } from "../../lib/hydrate-later";
import { BannerCarousel } from "./BannerCarousel";
import { HomeSection } from "./HomeSection";
import "./home.css";
import "@fontsource/ma-shan-zheng/400.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const homeContract = () => import("../../../shared/contracts/home");
const homeworkContract = () => import("../../../shared/contracts/homework");

/** One line on each course category for its entry tile. */
const categoryTexts: Record<CourseCategoryKey, string> = {
  kaishu: "横平竖直，结构端正，是习字的根基。",
  xingshu: "在楷书之上求流动，兼顾书写速度与美感。",
  lishu: "蚕头燕尾，一波三折，古朴而宽博。",
  zhuanshu: "线条圆匀，结体对称，回到汉字的源头。",
  caoshu: "笔势连绵，化繁为简，最见书写者的性情。",
  yingbi: "钢笔与中性笔的日常书写，写一手工整好字。",
  xiezuo: "从观察到成文，练习把想说的话写清楚、写动人。",
  guoxue: "诗词、经典与文房常识，笔墨之外的功夫。",
};

const steps = [
  { title: "看录播", text: "每节课拆成短小的课时，老师示范每一笔的起收转折，可以反复回看、调节倍速。" },
  { title: "上直播", text: "按课表进入直播间，看老师现场书写、讲评，有问题当场提出。" },
  { title: "交作业", text: "拍下自己的习作上传，老师逐字批改，给出评级、评语和圈画。" },
  { title: "记日记", text: "每天记下练了多久、写了多少字，日积月累，看得见自己的进步。" },
] as const;

/** Organization and WebSite, with the search box crawlers may offer (site-relative addresses). */
const homeJsonLd = [
  {
    "@type": "Organization",
    "@id": "/#organization",
    name: SITE_NAME_DEFAULT,
    url: "/",
    logo: "/favicon.svg",
    description: SITE_DESCRIPTION,
  },
  {
    "@type": "WebSite",
    "@id": "/#website",
    name: SITE_NAME_DEFAULT,
    url: "/",
    inLanguage: "zh-CN",
    publisher: { "@id": "/#organization" },
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: "/search?q={search_term_string}" },
      "query-input": "required name=search_term_string",
    },
  },
];

interface HomeData {
  home: Home | null;
  /** The latest works on the wall; null when the wall could not be loaded. */
  works: WallItem[] | null;
  /** The status of a failed load, for the error state. */
  errorStatus: number | null;
}

/** Works from the wall on the home page: two rows of four. */
const HOME_WORKS = 8;

// Everything below the categories is drawn with the page and hydrates on its own (decision 059).
const Catalogue = hydrateLater(() => import("./HomeCatalogue").then((m) => m.HomeCatalogue));

export async function loader({ env, signal }: PageLoaderArgs) {
  const meta = { title: "首页", description: SITE_DESCRIPTION, jsonLd: homeJsonLd };
  try {
    const [home, wall] = await Promise.all([
      env.api("/api/home", { signal, schema: homeContract().then((m) => m.homeSchema) }),
      // The home page stands without its wall section.
      env.api("/api/homework/wall", { signal, schema: homeworkContract().then((m) => m.wallSchema) }).catch(() => null),
    ]);
    const works = wall ? wall.items.slice(0, HOME_WORKS) : null;
    return { home, works, errorStatus: null, meta } satisfies HomeData & { meta: unknown };
  } catch (err) {
    // A newer navigation: let the router drop this one. Anything else: the page without data.
    if (signal.aborted) throw err;
    return {
      home: null,
      works: null,
      errorStatus: normalizeError(err).statusCode,
      meta,
    } satisfies HomeData & { meta: unknown };
  }
}

function Categories({ home }: { home: Home | null }) {
  const counts = new Map(home?.categories.map((c) => [c.key, c.count]));
  return (
    <HomeSection
      id="home-categories"
      title="从一门课开始"
      lead="毛笔五体、硬笔、写作与国学，按你想写的字和想读的书，选一扇门进来。"
      more={["/product/list", "全部课程"]}
    >
      <ul className="category-grid">
        {courseCategories.map((c) => {
          const count = counts.get(c.key);
          return (
            <li key={c.key}>
              <Link className="card category-tile" to={`/product/list?category=${c.key}`}>
                <span className="category-tile__glyph" aria-hidden="true">
                  {c.name.charAt(0)}
                </span>
                <div>
                  <h3 className="category-tile__name">
                    {c.name}
                    {count !== undefined ? <span className="category-tile__count">{count} 门课</span> : null}
                  </h3>
                  <p className="category-tile__text">{categoryTexts[c.key]}</p>
                </div>
              </Link>
            </li>
          );
        })}
      </ul>
    </HomeSection>
  );
}

export default function HomePage() {
  const { home, works, errorStatus } = useLoaderData<typeof loader>();
  const { siteName } = useRootData();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const retrying = revalidator.state === "loading" || navigation.state === "loading";

  return (
    <Page className="page--landing" title={siteName} lead="在笔墨之间，过一种从容的日子。">
      {home ? <BannerCarousel banners={home.banners} /> : null}
      <Categories home={home} />
      {home ? (
        <Catalogue home={home} works={works} />
      ) : (
        <section aria-label="课程推荐">
          <EmptyState
            glyph="误"
            title="课程推荐没能加载出来"
            action={
              <button
                type="button"
                className="button"
                disabled={retrying}
                onClick={() => void revalidator.revalidate()}
              >
                {retrying ? "正在重新加载…" : "重新加载"}
              </button>
            }
          >
            <p>服务暂时不可用，请稍后再试（错误代码 {errorStatus ?? 500}）。</p>
            <p>
              也可以直接 <Link to="/product/list">浏览全部课程</Link>。
            </p>
          </EmptyState>
        </section>
      )}

      <HomeSection
        id="home-how"
        title={`在${siteName}怎样学`}
        lead="写字靠手上的功夫，功夫要有人看、有人改，还要天天练。"
      >
        <ol className="feature-grid">
          {steps.map((s, i) => (
            <li key={s.title}>
              <span className="feature-grid__step">第{"一二三四"[i]}步</span>
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
      </HomeSection>
    </Page>
  );
}
