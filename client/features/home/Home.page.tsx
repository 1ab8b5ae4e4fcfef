/**
 * The home page: who we are in one line, the eight course categories as entry tiles, how
 * learning works, and a way in for newcomers. No catalogue data is shown until the course
 * service delivers it.
 */
import { Link } from "react-router-dom";
import { type CourseCategoryKey, courseCategories } from "../../../shared/catalogue";
import { useRootData } from "../../app/root-data";
import { Page } from "../../components/Page";

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
const categories = courseCategories.map((c) => ({ ...c, glyph: c.name.charAt(0), text: categoryTexts[c.key] }));

const steps = [
  { title: "看录播", text: "每节课拆成短小的课时，老师示范每一笔的起收转折，可以反复回看、调节倍速。" },
  { title: "上直播", text: "按课表进入直播间，看老师现场书写、讲评，有问题当场提出。" },
  { title: "交作业", text: "拍下自己的习作上传，老师逐字批改，给出评级、评语和圈画。" },
  { title: "记日记", text: "每天记下练了多久、写了多少字，日积月累，看得见自己的进步。" },
] as const;

export default function HomePage() {
  const { siteName } = useRootData();
  return (
    <Page
      className="page--home"
      title={siteName}
      lead="在笔墨之间，过一种从容的日子。"
      actions={
        <>
          <Link className="button button--primary" to="/product/list">
            浏览课程
          </Link>
          <Link className="button" to="/guide">
            新手指南
          </Link>
        </>
      }
    >
      <section aria-labelledby="home-categories">
        <h2 className="section-title" id="home-categories">
          从一门课开始
        </h2>
        <p className="section-lead">毛笔五体、硬笔、写作与国学，按你想写的字和想读的书，选一扇门进来。</p>
        <ul className="category-grid">
          {categories.map((c) => (
            <li key={c.key}>
              <Link className="category-tile" to={`/product/list?category=${c.key}`}>
                <span className="category-tile__glyph" aria-hidden="true">
                  {c.glyph}
                </span>
                <div>
                  <h3 className="category-tile__name">{c.name}</h3>
                  <p className="category-tile__text">{c.text}</p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-how">
        <h2 className="section-title" id="home-how">
          在{siteName}怎样学
        </h2>
        <p className="section-lead">写字靠手上的功夫，功夫要有人看、有人改，还要天天练。</p>
        <ol className="feature-grid">
          {steps.map((s, i) => (
            <li key={s.title}>
              <span className="feature-grid__step">第{"一二三四"[i]}步</span>
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="callout" aria-labelledby="home-start">
        <div>
          <h2 id="home-start">第一次来？</h2>
          <p>花三分钟读一读新手指南，或者先了解我们是谁、为什么开这所学堂。</p>
        </div>
        <div className="callout__actions">
          <Link className="button button--primary" to="/guide">
            阅读新手指南
          </Link>
          <Link className="button" to="/about">
            关于我们
          </Link>
        </div>
      </section>
    </Page>
  );
}
