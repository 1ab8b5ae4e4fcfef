/**
 * The learner's own pages under /my (a route group of its own: the browser loads it with the
 * first /my page, not with every page; see decision 048). The logout page is not part of it.
 */
import type { RouteDef } from "../route-def";

const myChildren: RouteDef[] = [
  { id: "my.index", path: "", page: "my/Overview", title: "个人中心" },
  { id: "my.allcourse", path: "allcourse", page: "my/AllCourse", title: "我的课程" },
  { id: "my.activities", path: "activities", page: "my/Activities", title: "我的活动" },
  { id: "my.calendar", path: "calendar", page: "my/Calendar", title: "学习日历" },
  { id: "my.dairy", path: "dairy", page: "my/Dairy", title: "练字日记" },
  { id: "my.exchange", path: "exchange", page: "my/Exchange", title: "兑换商城" },
  { id: "my.exchange.detail", path: "exchange/detail", page: "my/ExchangeDetail", title: "兑换详情" },
  { id: "my.exchange.record", path: "exchange/record", page: "my/ExchangeRecord", title: "兑换记录" },
  {
    id: "my.exchange.record.bishan",
    path: "exchange/record/bishan",
    page: "my/ExchangeRecordBishan",
    title: "笔山明细",
  },
  {
    id: "my.exchange.record.coin",
    path: "exchange/record/coin",
    page: "my/ExchangeRecordCoin",
    title: "金币明细",
  },
  { id: "my.homework", path: "homework", page: "my/Homework", title: "我的作业" },
  { id: "my.information", path: "information", page: "my/Information", title: "个人资料" },
  { id: "my.order", path: "order", page: "my/Order", title: "我的订单" },
  { id: "my.packs", path: "packs", page: "my/Packs", title: "我的卡包" },
  { id: "my.security", path: "security", page: "my/Security", title: "账号与安全" },
];

export const myRoute: RouteDef = {
  id: "my",
  path: "my",
  page: "my/MyLayout",
  title: "个人中心",
  access: "user",
  children: myChildren,
};
