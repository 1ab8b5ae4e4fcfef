import { describe, expect, it } from "vitest";
import { pageText as text } from "../../test-support/rule-numbers";
import PrivacyPage from "./Privacy.page";
import ServicePage from "./Service.page";

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
