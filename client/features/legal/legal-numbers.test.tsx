import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it, vi } from "vitest";
import AgreementPage from "./Agreement.page";
import DeletionAgreementPage from "./DeletionAgreement.page";

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

describe("legal pages state the rules the site applies", () => {
  it("the user agreement gives the payment time limits", () => {
    expect(text(<AgreementPage />)).toContain(
      "订单生成后 45 分钟内未支付的，将自动取消；拼团订单的支付时限为 12 分钟。",
    );
  });
  it("the deletion agreement gives the cooling-off period", () => {
    const page = text(<DeletionAgreementPage />);
    expect(page).toContain("21 天冷静期");
    expect(page).not.toContain("15 天");
  });
});
