import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import PrivacyPage from "./Privacy.page";
import ServicePage from "./Service.page";

// Numbers that differ from today's, to show the pages read them from the rules, not from their text.
vi.mock("../../../shared/contracts/orders", async (original) => ({
  ...(await original<object>()),
  ORDER_PAY_MINUTES: 45,
  REFUND_DAYS: 9,
}));
vi.mock("../../../shared/contracts/groups", async (original) => ({
  ...(await original<object>()),
  GROUP_PAY_MINUTES: 12,
}));
vi.mock("../../../shared/contracts/me", async (original) => ({
  ...(await original<object>()),
  DELETION_COOLING_DAYS: 21,
}));
vi.mock("../../lib/root-data", () => ({
  useRootData: () => ({ siteName: "墨池课堂", serviceEmail: "kefu@example.com", servicePhone: "400-000-0000" }),
}));
vi.mock("../../components/Page", () => ({ Page: ({ children }: { children?: ReactNode }) => <main>{children}</main> }));

const text = (page: ReactNode) =>
  renderToString(<MemoryRouter>{page}</MemoryRouter>)
    .replace(/<[^>]+>/g, "")
    .replace(/<!-- -->/g, "");

describe("protocol pages state the rules the site applies", () => {
  it("the service terms give the payment, seat and refund limits", () => {
    const page = text(<ServicePage />);
    expect(page).toContain("订单生成后 45 分钟内未支付的，自动取消；拼团订单的支付时限为 12 分钟。");
    expect(page).toContain("我们为其保留名额 12 分钟");
    expect(page).toMatch(/支付后 9\s+天内/);
    expect(page).toContain("超过 9 天的课程");
    expect(page).toContain("签收后 9 天内，商品完好");
  });
  it("the privacy policy gives the cooling-off period", () => {
    expect(text(<PrivacyPage />)).toContain("经过 21 天冷静期");
  });
});
