import { describe, expect, it } from "vitest";
import { pageText as text } from "../../test-support/rule-numbers";
import AgreementPage from "./Agreement.page";
import DeletionAgreementPage from "./DeletionAgreement.page";

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
