/**
 * The one route table of the site, read by the server (match, guard, validate, load, render)
 * and by the browser (hydrate, navigate). Pure data: no React, no Node, no DOM.
 *
 * Every page is registered twice, as the clean path and as `…/index.html` (spec §2);
 * `expandIndexHtml` does that when the router routes are built.
 */
import { isIdText } from "./ids";
import { adminRoute } from "./route-groups/admin";
import { fixtureRoute } from "./route-groups/fixtures";
import { myRoute } from "./route-groups/my";
import { teachRoute } from "./route-groups/teach";
import type { Access, ParamRule, RouteDef } from "./route-def";

/** A path parameter's check, shaped like a schema's `safeParse` (no validation library in the browser's entry). */
export interface ParamCheck {
  safeParse(value: unknown): { success: boolean };
}

const check = (test: (value: string) => boolean): ParamCheck => ({
  safeParse: (value) => ({ success: typeof value === "string" && test(value) }),
});

/** How a path parameter is validated. A failed check renders the 404 page with status 404. */
export const paramRules = {
  /** Database ids: positive integers without leading zeros, within int4. */
  id: check(isIdText),
  /** Group-buy numbers: "GB" followed by 14 digits (issue date yyMMdd + 8-digit sequence). */
  groupNo: check((v) => /^GB\d{14}$/.test(v)),
  /** Activity tokens: 6–64 URL-safe characters. */
  token: check((v) => /^[A-Za-z0-9_-]{6,64}$/.test(v)),
} as const satisfies Record<ParamRule, ParamCheck>;

/** The route definition a matched router route carries in its handle. */
export function defOf(route: { handle?: unknown }): RouteDef | undefined {
  return (route.handle as { def?: RouteDef } | undefined)?.def;
}

/** The product lines with an about page `/about-{product}`. */
export const aboutProducts = {
  maobi: "毛笔书法",
  yingbi: "硬笔书法",
  xiezuo: "写作",
} as const;
export type AboutProduct = keyof typeof aboutProducts;

const protocolChildren: RouteDef[] = [
  { id: "protocol.index", path: "", page: "protocol/ProtocolIndex", title: "协议与帮助" },
  { id: "protocol.contact", path: "contact", page: "protocol/Contact", title: "联系我们" },
  { id: "protocol.feedback", path: "feedback", page: "protocol/Feedback", title: "意见反馈" },
  { id: "protocol.privacy", path: "privacy", page: "protocol/Privacy", title: "隐私政策" },
  { id: "protocol.service", path: "service", page: "protocol/Service", title: "服务协议" },
];

/**
 * The pages every visit may reach, in the browser's entry. The route groups under
 * shared/route-groups (the learner's /my pages, the teachers' /teach, the operators' /admin and
 * the test fixtures) are left out: the browser loads each with its first page (decision 048).
 */
const entryHead: RouteDef[] = [
  { id: "home", path: "", page: "home/Home", title: "首页" },
  { id: "about", path: "about", page: "about/About", title: "关于我们" },
  ...Object.entries(aboutProducts).map(([product, name]): RouteDef => ({
    id: `about.${product}`,
    path: `about-${product}`,
    page: "about/AboutProduct",
    title: `关于${name}`,
  })),
  { id: "agreement", path: "agreement", page: "legal/Agreement", title: "用户协议", layout: "clean" },
  { id: "books", path: "books", page: "books/Books", title: "书籍" },
  { id: "books.tabs", path: "books/tabs", page: "books/BookTabs", title: "书籍分类" },
  { id: "books.detail", path: "books/:id", page: "books/BookDetail", title: "书籍详情", params: { id: "id" } },
  { id: "bowser", path: "bowser", page: "bowser/Bowser", title: "请升级浏览器", layout: "clean", middleware: [] },
  { id: "calmness", path: "calmness", page: "calmness/Calmness", title: "静心习字", componentFetch: true },
  {
    id: "deletion-agreement",
    path: "deletion-agreement",
    page: "legal/DeletionAgreement",
    title: "账号注销协议",
    layout: "clean",
  },
  { id: "experience", path: "experience", page: "experience/Experience", title: "体验课" },
  { id: "guide", path: "guide", page: "guide/Guide", title: "新手指南" },
  { id: "guide.live", path: "guide/live", page: "guide/GuideLive", title: "直播课指南" },
  { id: "homework", path: "homework", page: "homework/Homework", title: "作业墙" },
  { id: "homework.share", path: "homework/share", page: "homework/HomeworkShare", title: "作业分享", layout: "clean" },
  { id: "live", path: "live", page: "live/Live", title: "直播" },
  { id: "live.room", path: "live/:id", page: "live/LiveRoom", title: "直播间", params: { id: "id" } },
  { id: "payment", path: "payment", page: "payment/Payment", title: "支付订单", access: "user" },
  { id: "payment.success", path: "payment/success", page: "payment/PaymentSuccess", title: "支付成功", access: "user" },
  { id: "playback", path: "playback", page: "playback/Playback", title: "回放" },
  { id: "search", path: "search", page: "search/Search", title: "搜索" },
  { id: "stationery", path: "stationery", page: "stationery/Stationery", title: "文房" },
  { id: "video", path: "video", page: "video/VideoList", title: "公开课" },
  { id: "video.public", path: "video/PublicCourseItem", page: "video/PublicCourseItem", title: "公开课" },
  { id: "product.list", path: "product/list", page: "course/CourseList", title: "课程" },
  { id: "show.activity", path: "show/activity", page: "activity/ShowActivity", title: "活动" },
  { id: "my.logout", path: "my/logout", page: "my/Logout", title: "退出登录", layout: "clean" },
  { id: "activitys.bmyx", path: "activitys/bmyx", page: "activity/Bmyx", title: "笔墨研习" },
  { id: "activitys.daycourse", path: "activitys/daycourse", page: "activity/DayCourse", title: "每日一课" },
  { id: "activitys.reading", path: "activitys/reading", page: "activity/Reading", title: "共读" },
  { id: "activitys.travel_note", path: "activitys/travel_note", page: "activity/TravelNote", title: "游记" },
  {
    id: "activitys.token",
    path: "activitys/:token",
    page: "activity/ActivityLanding",
    title: "活动",
    params: { token: "token" },
  },
  {
    id: "activitys.token.share",
    path: "activitys/:token/share",
    page: "activity/ActivityShare",
    title: "活动分享",
    params: { token: "token" },
    layout: "clean",
  },
  {
    id: "qr.confirm",
    path: "m/qr/:ticket",
    page: "qr/QrConfirm",
    title: "确认扫码登录",
    params: { ticket: "token" },
    layout: "clean",
  },
];

const entryTail: RouteDef[] = [
  {
    id: "protocol",
    path: "protocol",
    page: "protocol/ProtocolLayout",
    title: "协议与帮助",
    children: protocolChildren,
  },
  {
    id: "commodity",
    path: "commodity/:id",
    page: "commodity/Commodity",
    title: "商品详情",
    params: { id: "id" },
  },
  {
    id: "course_old",
    path: "course_old/:id",
    page: "course/CourseOld",
    title: "课程详情",
    params: { id: "id" },
    middleware: ["auth", "legacyCourse"],
  },
  { id: "course", path: "course/:id", page: "course/CourseDetail", title: "课程详情", params: { id: "id" } },
  {
    id: "groupbuy",
    path: "groupbuy/:groupNo",
    page: "groupbuy/GroupBuy",
    title: "拼团",
    params: { groupNo: "groupNo" },
  },
  { id: "video.detail", path: "video/:id", page: "video/VideoDetail", title: "课程视频", params: { id: "id" } },
];

/** The pages of the browser's entry: the table without its route groups. */
export const entryRouteTable: RouteDef[] = /* @__PURE__ */ entryHead.concat(entryTail);

/** The whole table (server, tests): the entry's pages and every route group, in one order. */
export const routeTable: RouteDef[] = /* @__PURE__ */ entryHead.concat([myRoute, teachRoute, adminRoute], entryTail, [
  fixtureRoute,
]);

/** Middleware names every route may use; the unit test walks the table against this list. */
const DEFAULT_MIDDLEWARE = "auth";

export function middlewareOf(def: RouteDef): string[] {
  return def.middleware ?? [DEFAULT_MIDDLEWARE];
}

/** Every def of the table, depth first, with its parent chain. */
export function walkRoutes(
  defs: RouteDef[] = routeTable,
  parents: RouteDef[] = [],
): Array<{ def: RouteDef; parents: RouteDef[]; fullPath: string }> {
  const out: Array<{ def: RouteDef; parents: RouteDef[]; fullPath: string }> = [];
  for (const def of defs) {
    const fullPath = `/${[...parents.map((p) => p.path), def.path].filter(Boolean).join("/")}`;
    out.push({ def, parents, fullPath });
    if (def.children) out.push(...walkRoutes(def.children, [...parents, def]));
  }
  return out;
}

const ACCESS_ORDER: readonly Access[] = ["public", "user", "teacher", "operator"];

/** Staff pages (teachers' and operators'): never cached, never indexed. */
export const isStaffAccess = (access: Access) => access === "teacher" || access === "operator";

/** Effective access of a route: the strictest along its chain. */
export function accessOf(chain: RouteDef[]): Access {
  let strictest: Access = "public";
  for (const d of chain) {
    if (d.access && ACCESS_ORDER.indexOf(d.access) > ACCESS_ORDER.indexOf(strictest)) strictest = d.access;
  }
  return strictest;
}
