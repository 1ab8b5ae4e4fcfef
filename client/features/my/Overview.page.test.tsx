import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import type { Me } from "../../../shared/contracts/me";
import type { Wallet } from "../../../shared/contracts/wallet";
import OverviewPage from "./Overview.page";

let loaderData: { me: Me; courses: null; wallet: Wallet | null };
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
    loaderData = { me, courses: null, wallet };
    const page = text();
    expect(page).toContain("|金币|12,345|去签到、兑换|");
    expect(page).toContain("|笔山|6|笔山记录|");
    expect(page).not.toContain("准备中");
    expect(page).toContain("2026年3月1日|加入");
  });

  it("says so when the wallet could not be read", () => {
    loaderData = { me, courses: null, wallet: null };
    expect(text()).toContain("|金币|—|暂时没能加载|");
  });
});
