import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import type { Me, Overview } from "../../../shared/contracts/me";
import type { Wallet } from "../../../shared/contracts/wallet";
import OverviewPage from "./Overview.page";

let loaderData: { me: Me; courses: null; wallet: Wallet | null; overview: Overview | null };
vi.mock("react-router-dom", async (original) => ({
  ...(await original<object>()),
  useLoaderData: () => loaderData,
}));
vi.mock("../../components/Page", () => ({ Page: ({ children }: { children?: ReactNode }) => <main>{children}</main> }));

const me: Me = {
  profile: {
    id: 7,
    nickname: "临池",
    avatarUrl: null,
    gender: null,
    region: null,
    intro: null,
    phone: "138****8000",
    email: null,
    hasPassword: true,
    deviceProtection: true,
    status: "active",
    deletionRequestedAt: null,
    deletionDueAt: null,
    createdAt: "2026-03-01T02:00:00.000Z",
  },
  counts: { unreadNotices: 0 },
};
const wallet: Wallet = {
  balances: { coin: 12_345, bishan: 6 },
  today: [],
  checkedInToday: false,
  rate: { coinsPerBishan: 100, maxBishanPerExchange: 100 },
};

const text = () =>
  renderToString(
    <MemoryRouter>
      <OverviewPage />
    </MemoryRouter>,
  )
    .replace(/<[^>]+>/g, "|")
    .replace(/\|+/g, "|");

describe("the personal centre overview", () => {
  it("shows the coin and bishan balances, with the way to the exchange", () => {
    loaderData = { me, courses: null, wallet, overview: null };
    const page = text();
    expect(page).toContain("|金币|12,345|去签到、兑换|");
    expect(page).toContain("|笔山|6|笔山记录|");
    expect(page).not.toContain("准备中");
    expect(page).toContain("2026年3月1日|加入");
  });

  it("says so when the wallet could not be read", () => {
    loaderData = { me, courses: null, wallet: null, overview: null };
    expect(text()).toContain("|金币|—|暂时没能加载|");
  });

  it("shows today's check-in, the next live lesson, homework to hand in and study minutes per week", () => {
    const overview: Overview = {
      checkIn: { done: true },
      homework: {
        toDo: 2,
        inReview: 1,
        items: [{ taskId: 4, lessonId: 12, title: "横画的写法", courseTitle: "欧体楷书入门", state: "returned" }],
      },
      nextLive: {
        id: 9,
        title: "隶书蚕头燕尾",
        startsAt: "2026-11-27T12:00:00.000Z",
        state: "scheduled",
        booked: true,
      },
      studyWeeks: [
        { weekStart: "2026-11-16", minutes: 40 },
        { weekStart: "2026-11-23", minutes: 25 },
      ],
    };
    loaderData = { me, courses: null, wallet, overview };
    const page = text();
    expect(page).toContain("|今日签到|已签到|");
    expect(page).toContain("|下一场直播|隶书蚕头燕尾|11月27日 20:00 · 已预约|");
    expect(page).toContain("|待交作业|2|另有 1 份等老师批改 · |我的作业|");
    expect(page).toContain("|欧体楷书入门|横画的写法|退回重写|");
    expect(page).toContain("近 2 周共学习 65 分钟");
    const html = renderToString(
      <MemoryRouter>
        <OverviewPage />
      </MemoryRouter>,
    );
    expect(html).toContain('aria-label="近 2 周每周学习时长：11月16日起 40 分钟，11月23日起 25 分钟"');
    // The current week's bar is the seal-red one.
    expect(html.match(/study-chart__bar--current/g)).toHaveLength(1);
  });
});
