import { describe, expect, it } from "vitest";
import { pageText as text } from "../../test-support/rule-numbers";
import GuidePage from "./Guide.page";

describe("the guide states the rules the site applies", () => {
  it("gives the payment time limits and the refund and return periods", () => {
    const page = text(<GuidePage />);
    expect(page).toContain("下单后 45 分钟内未支付的订单会自动取消；拼团订单的支付时限为 12 分钟。");
    expect(page).toMatch(/购买后 9\s+天内/);
    expect(page).toContain("签收后 9 天内");
  });
});
