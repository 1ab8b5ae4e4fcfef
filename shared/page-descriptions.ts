/**
 * A description of its own for every page that does not give one (a page loader's
 * `meta.description` wins over it). The server renders it into the document head and sends the
 * current page's in the boot payload; the browser loads this table after hydration, before its
 * first navigation (decision 048), so it is not part of any page's initial JavaScript.
 */
import type { RouteDef } from "./route-def";

/** A description of its own for every page that does not give one (the deepest matched route's). */
export const PAGE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  about: "墨池课堂是一所线上书法与写作学校：名师录播与直播授课，作业逐字批改，陪学员从执笔开始写好每一个字。",
  "about.maobi": "墨池课堂毛笔书法课：楷、行、隶、篆、草五体，从执笔、笔画到结构与章法，名师示范，作业逐字批改。",
  "about.yingbi": "墨池课堂硬笔书法课：钢笔、中性笔正楷与行楷，纠正握笔与坐姿，适合学生与上班族每天练字。",
  "about.xiezuo": "墨池课堂写作课：记叙、说明、议论与应用文写作，读写结合，老师逐篇批改，适合中小学生与成人。",
  agreement: "墨池课堂用户协议：账号注册与使用、课程与商品购买、学员行为规范、知识产权与免责条款。",
  books: "墨池课堂书籍：碑帖字帖、技法教程、书法理论与国学读物，与课程配套。",
  "books.tabs": "按分类浏览墨池课堂的书籍：碑帖字帖、技法教程、书法理论与国学读物。",
  bowser: "您的浏览器版本过低，请升级到新版浏览器后访问墨池课堂。",
  calmness: "静心习字：每天一字，临写千字文，在墨香中静下心来。",
  "deletion-agreement": "墨池课堂账号注销协议：注销的条件、流程，以及注销后账号数据与资产的处理。",
  experience: "墨池课堂体验课：低价体验毛笔、硬笔书法与写作课程，名师直播示范，体验后再决定是否报名。",
  guide: "墨池课堂新手指南：注册登录、选课购课、看课与交作业、直播上课、订单与售后，一步步带你上手。",
  "guide.live": "直播课指南：如何进入直播间、与老师互动提问、观看回放，以及直播常见问题的解决方法。",
  homework: "作业墙：老师批改评为“优”、经学员同意公开的书法与写作习作，附老师的评语与批注。",
  "homework.share": "墨池课堂学员的优秀作业，附老师的评语与批注。",
  live: "墨池课堂直播课：名师在线示范书写、当堂答疑，正在直播、即将开始与往期回放一览。",
  payment: "核对订单金额，选择支付方式并完成付款。",
  "payment.success": "查看订单的支付结果和下一步。",
  playback: "直播课结束后生成的回放：学员可以随时回看，进度自动保存。",
  search: "在墨池课堂搜索课程、书籍与文房用品。",
  stationery: "墨池课堂文房：毛笔、墨汁、宣纸、砚台、字帖与练字用品，老师挑选，与课程配套。",
  video: "免费书法与写作公开课：执笔、基本笔画、行书连带、隶书蚕头燕尾、硬笔握笔，不用登录就能看。",
  "video.public": "墨池课堂免费公开课：名师讲解书法与写作的要点，不用登录就能看。",
  "product.list": "墨池课堂全部课程：毛笔楷书、行书、隶书、篆书、草书，硬笔书法与写作，录播课、直播课与训练营。",
  "show.activity": "墨池课堂正在进行的活动：笔墨研习、每日一课、共读与游记，报名后每天打卡，练习记入练字日记。",
  "my.logout": "退出墨池课堂账号。",
  "activitys.bmyx": "笔墨研习：围绕一位书家或一件名帖的主题研习，跟着老师读帖、临帖，临写作业交老师批改。",
  "activitys.daycourse": "每日一课：每天一节短课，几分钟学会一个笔画或一个字的写法。",
  "activitys.reading": "共读：与同学一起读书法与国学经典，报名后每天打卡。",
  "activitys.travel_note": "游记：跟着老师寻访碑林、名胜与书法遗迹，行程中每天打卡记下临写的字。",
  "activitys.token": "墨池课堂活动：报名参加，每天打卡记入练字日记，临写作业交老师批改。",
  "activitys.token.share": "邀请你参加墨池课堂的活动。",
  "qr.confirm": "在手机上确认扫码登录墨池课堂。",
  my: "墨池课堂个人中心：我的课程、作业、订单、卡包与账号设置。",
  "my.index": "墨池课堂个人中心：学习进度、作业、订单与金币一览。",
  "my.activities": "我报名的活动：报名状态、打卡天数和活动的临写作业。",
  "my.allcourse": "我报名和购买的课程，以及每门课的学习进度。",
  "my.calendar": "学习日历：每天的课程、直播与作业安排。",
  "my.dairy": "练字日记：记录每天的练习，看见自己的进步。",
  "my.exchange": "用学习获得的金币和笔山兑换文房用品、书籍、优惠券和课程。",
  "my.exchange.detail": "兑换商品的详情与兑换方式。",
  "my.exchange.record": "我的兑换记录。",
  "my.exchange.record.bishan": "我的笔山收支明细。",
  "my.exchange.record.coin": "我的金币收支明细。",
  "my.homework": "我交过的作业、老师的批改与评语，以及退回后重新提交。",
  "my.information": "修改我的头像、昵称与个人资料。",
  "my.order": "查看课程、书籍和文房订单，继续支付、取消、退款或确认收货。",
  "my.packs": "我的优惠券：可用、已使用、已过期和已退回，以及领券中心。",
  "my.security": "账号与安全：绑定手机、邮箱与微信，修改密码，注销账号。",
  teach: "墨池课堂教师工作台：作业批改与课程管理。",
  "teach.index": "墨池课堂教师工作台：待批改的作业与课程一览。",
  "teach.homework": "作业批改：领取学员作业，圈点批注、打分评语或退回重写。",
  "teach.homework.review": "批改一份学员作业。",
  protocol: "墨池课堂协议与帮助：联系我们、意见反馈、隐私政策与服务协议。",
  "protocol.index": "墨池课堂协议与帮助：联系我们、意见反馈、隐私政策与服务协议。",
  "protocol.contact": "联系墨池课堂：客服电话、电子邮箱与服务时间。",
  "protocol.feedback": "向墨池课堂提交意见反馈：课程、网站使用与服务中遇到的问题和建议。",
  "protocol.privacy": "墨池课堂隐私政策：我们收集哪些个人信息、如何使用与保护，以及你的权利。",
  "protocol.service": "墨池课堂服务协议：课程服务、付费与退款、直播与回放的服务约定。",
  course: "墨池课堂课程详情：课程介绍、课时目录、主讲老师与学员评价。",
  course_old: "墨池课堂课程详情。",
  "books.detail": "墨池课堂书籍详情。",
  commodity: "墨池课堂文房商品详情。",
  groupbuy: "墨池课堂拼团：邀请好友一起拼团，以更低的价格报名课程。",
  "video.detail": "墨池课堂课程视频。",
  "live.room": "墨池课堂直播间：名师在线示范书写、当堂答疑。",
};

/** The description of the deepest matched route that has one. */
export function routeDescription(chain: readonly RouteDef[]): string | undefined {
  for (let i = chain.length - 1; i >= 0; i--) {
    const found = PAGE_DESCRIPTIONS[chain[i]!.id];
    if (found) return found;
  }
  return undefined;
}
