/**
 * /about-maobi, /about-yingbi, /about-xiezuo: one module, three product lines. Which one is
 * read from the deepest matched route (`about.<product>` in the route table).
 */
import { useMatches } from "react-router-dom";
import { Link } from "../../routing/link";
import { type AboutProduct, aboutProducts } from "../../../shared/routes";
import { Page } from "../../components/Page";
import { defOf } from "../../../shared/routes";

interface Level {
  name: string;
  text: string;
}

interface ProductCopy {
  lead: string;
  audience: string[];
  levels: Level[];
  practice: Array<{ title: string; text: string }>;
  plan: string[];
  planNote: string;
  /** Course categories of /product/list this product line covers. */
  categories: Array<{ key: string; name: string }>;
}

const copy: Record<AboutProduct, ProductCopy> = {
  maobi: {
    lead: "从执笔、基本笔画学起，临摹经典碑帖，直到完成一幅属于自己的作品。",
    audience: [
      "从没拿过毛笔、想从零开始的成年人；",
      "小时候学过一阵、放下多年，想重新捡起来的人；",
      "已经能写一种书体，想系统地学习另一种书体的人；",
      "想在忙碌之余找一件能让自己静下来的事的人。",
    ],
    levels: [
      {
        name: "入门",
        text: "认识笔墨纸砚，学习坐姿、执笔和运笔，练好横、竖、撇、捺、点、钩、折、提八种基本笔画。以楷书为起点，因为它的笔法最完整、最容易看清对错。",
      },
      {
        name: "基础",
        text: "选定一家楷书（如颜体、欧体）系统临帖：偏旁部首、结构规律、字与字之间的大小和疏密。目标是能用这家的笔法写出帖外的字。",
      },
      {
        name: "提高",
        text: "由楷入行，学习笔画之间的连带和节奏；也可以进入隶书、篆书，体会不同时代的用笔。有一定积累之后再接触草书。",
      },
      {
        name: "创作",
        text: "学习章法布局、落款与钤印，了解条幅、斗方、扇面、对联等作品形式，从临摹走向完成一幅完整的作品。",
      },
    ],
    practice: [
      { title: "笔法", text: "起笔、行笔、收笔，中锋与侧锋，提按与转折。每一笔都有来处。" },
      { title: "结构", text: "一个字里笔画的长短、角度和位置关系，重心稳，字才立得住。" },
      { title: "读帖与临帖", text: "先看清，再写像。对临、背临交替进行，把帖里的字变成自己的。" },
      { title: "章法", text: "一行字、一幅字的整体安排：行气贯通，大小错落，留白得当。" },
    ],
    plan: [
      "每周学习 1～2 个新课时，每个课时十几分钟，看完马上动笔。",
      "每周练习 3～5 次，每次 30～60 分钟；与其一周一次写三小时，不如每天写半小时。",
      "每课至少交一次作业，按老师的批注改过之后再写一遍。",
      "参加直播课时带着问题来：把自己最没把握的那几个字留给老师当场讲。",
      "每天在练字日记里打卡，一个月后把第一天和最后一天的字放在一起看。",
    ],
    planNote: "以上是建议的节奏，具体以所报课程页标明的课时安排为准；训练营按日期解锁课时，请跟上进度。",
    categories: [
      { key: "kaishu", name: "楷书" },
      { key: "xingshu", name: "行书" },
      { key: "lishu", name: "隶书" },
      { key: "zhuanshu", name: "篆书" },
      { key: "caoshu", name: "草书" },
    ],
  },
  yingbi: {
    lead: "用钢笔和中性笔，写好每天都要写的字：笔记、表格、书信与签名。",
    audience: [
      "觉得自己的字“拿不出手”，想写得工整大方的上班族；",
      "作业、考试需要书写清楚的中学生、大学生；",
      "常在黑板、作业本和评语上写字的老师；",
      "想把抄诗、写手账变成一件赏心悦目的事的人。",
    ],
    levels: [
      {
        name: "入门",
        text: "调整坐姿和握笔，做控笔练习，让线条稳定；学习基本笔画和常用偏旁的写法。",
      },
      {
        name: "规范楷书",
        text: "掌握常用字的结构规律：上下、左右、包围等结构的比例与重心，写出端正、匀称的楷书。",
      },
      {
        name: "行楷",
        text: "在楷书的基础上学习笔画的连带与简化，在不牺牲清晰的前提下提高书写速度，满足日常书写的需要。",
      },
      {
        name: "作品与应用",
        text: "诗词小品、书信、贺卡和笔记的排版，学习字距、行距与整体布局，让一整页都好看。",
      },
    ],
    practice: [
      { title: "控笔", text: "直线、弧线、转折的专项练习，让手听话，线条干净利落。" },
      { title: "笔画与偏旁", text: "每个笔画的方向、长短和角度，常用偏旁在不同位置的变化。" },
      { title: "结构", text: "主笔突出、重心平稳、疏密得当，这是字好看的关键。" },
      { title: "速度与章法", text: "在一定速度下保持字形稳定，并安排好一整页的行款。" },
    ],
    plan: [
      "每天 15～20 分钟即可，硬笔贵在持续，时间短也要天天写。",
      "每周学习 2～3 个新课时，先看示范，再照着课时里的练习纸书写。",
      "每课交一页作业，拍照时让整页入镜、光线均匀，方便老师看清细节。",
      "把课上学到的字用到日常书写中：写一条便签、抄一首诗，都是练习。",
    ],
    planNote: "以上是建议的节奏，具体以所报课程页标明的课时安排为准。",
    categories: [{ key: "yingbi", name: "硬笔" }],
  },
  xiezuo: {
    lead: "从观察和记录开始，练习把想说的话写清楚、写完整、写得打动人。",
    audience: [
      "心里有很多话，落到纸上却总是写不出来的人；",
      "想把旅行、读书和生活中的片段记录下来的人；",
      "工作中需要写总结、方案和书信，希望写得更清楚的人；",
      "想系统学习散文、游记、读书笔记等文体的写作爱好者。",
    ],
    levels: [
      {
        name: "观察与记录",
        text: "练习看得细、记得准：一处景物、一个人、一件小事，用具体的细节写下来，而不是空泛的形容。",
      },
      {
        name: "段落与结构",
        text: "学习一段话怎样围绕一个意思展开，一篇文章怎样开头、推进和收束，让读者跟得上你的思路。",
      },
      {
        name: "文体练习",
        text: "散文、书信、游记、读书笔记、人物小传，每种文体都有自己的讲究，逐一动手写。",
      },
      {
        name: "修改与成篇",
        text: "好文章是改出来的。学习自己修改：删去多余的字句，调整顺序，最后完成一篇满意的作品。",
      },
    ],
    practice: [
      { title: "写细节", text: "用看到的、听到的、摸到的代替“很美”“很感动”。" },
      { title: "写结构", text: "先列提纲，再动笔；每一段都知道自己在文章里的位置。" },
      { title: "写语言", text: "句子简洁准确，用词贴切，读起来顺口。" },
      { title: "读与写", text: "精读名篇，分析别人是怎样写的，再用到自己的文章里。" },
    ],
    plan: [
      "每周学习 1～2 个课时，每课围绕一个写作问题讲透。",
      "每周完成一篇写作练习，篇幅从三五百字开始，逐步加长。",
      "把作业提交给老师批改：老师会在文中批注，并写下总评和修改建议。",
      "根据批注改一遍再交，对比两稿，体会修改带来的变化。",
      "平时随身记：一句话、一个场景，都可能成为下一篇文章的开头。",
    ],
    planNote: "以上是建议的节奏，具体以所报课程页标明的课时安排为准。",
    categories: [
      { key: "xiezuo", name: "写作" },
      { key: "guoxue", name: "国学" },
    ],
  },
};

function useProductKey(): AboutProduct {
  const matches = useMatches();
  const deepest = matches[matches.length - 1];
  const id = deepest ? defOf(deepest)?.id : undefined;
  const key = id?.replace(/^about\./, "");
  return key && key in aboutProducts ? (key as AboutProduct) : "maobi";
}

export default function AboutProductPage() {
  const key = useProductKey();
  const name = aboutProducts[key];
  const c = copy[key];
  return (
    <Page lead={c.lead}>
      <div className="article-layout">
        <div className="prose">
          <section aria-labelledby="product-audience">
            <h2 id="product-audience">适合谁学</h2>
            <ul>
              {c.audience.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p>不需要任何基础，也不需要准备昂贵的工具。开始之前只需要想清楚一件事：愿意每周留出几段安静的时间给它。</p>
          </section>

          <section aria-labelledby="product-levels">
            <h2 id="product-levels">课程阶段</h2>
            <p>
              {name}
              课程按由浅入深的四个阶段编排。每个阶段都有录播课、直播课和配套作业，可以从任何一个适合自己的阶段开始。
            </p>
            <ol className="level-list">
              {c.levels.map((level) => (
                <li key={level.name}>
                  <h3>{level.name}</h3>
                  <p>{level.text}</p>
                </li>
              ))}
            </ol>
          </section>

          <section aria-labelledby="product-practice">
            <h2 id="product-practice">练什么</h2>
            <ul className="card-grid">
              {c.practice.map((item) => (
                <li className="card" key={item.title}>
                  <h3>{item.title}</h3>
                  <p>{item.text}</p>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="product-plan">
            <h2 id="product-plan">一份典型的学习计划</h2>
            <ul>
              {c.plan.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <p className="prose__meta">{c.planNote}</p>
          </section>
        </div>

        <aside className="card article-aside" aria-labelledby="product-aside">
          <h2 id="product-aside">相关课程</h2>
          <ul>
            {c.categories.map((cat) => (
              <li key={cat.key}>
                <Link to={`/product/list?category=${cat.key}`}>{cat.name}课程</Link>
              </li>
            ))}
          </ul>
          <h2>其他方向</h2>
          <ul>
            {(Object.keys(aboutProducts) as AboutProduct[]).map((other) => (
              <li key={other}>
                <Link to={`/about-${other}`} aria-current={other === key ? "page" : undefined}>
                  {aboutProducts[other]}
                </Link>
              </li>
            ))}
          </ul>
          <Link className="button button--primary" to="/guide">
            新手指南
          </Link>
        </aside>
      </div>
    </Page>
  );
}
