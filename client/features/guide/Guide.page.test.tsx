import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import GuidePage from "./Guide.page";

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

describe("the guide states the rules the site applies", () => {
  it("gives the payment time limits and the refund and return periods", () => {
    const page = text(<GuidePage />);
    expect(page).toContain("下单后 45 分钟内未支付的订单会自动取消；拼团订单的支付时限为 12 分钟。");
    expect(page).toMatch(/购买后 9\s+天内/);
    expect(page).toContain("签收后 9 天内");
  });
});
