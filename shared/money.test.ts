import { describe, expect, it } from "vitest";
import { formatMoney, formatYuan, priceLabel } from "./money";

describe("money formatting", () => {
  it("shows whole yuan without decimals and keeps real cents", () => {
    expect(formatYuan(19900)).toBe("199");
    expect(formatYuan(1990)).toBe("19.9");
    expect(formatYuan(1999)).toBe("19.99");
    expect(formatYuan(5)).toBe("0.05");
  });
  it("puts the yuan sign before an amount, zero included", () => {
    expect(formatMoney(12800)).toBe("¥128");
    expect(formatMoney(1990)).toBe("¥19.9");
    expect(formatMoney(0)).toBe("¥0");
  });
  it("calls a zero price free", () => {
    expect(priceLabel(0)).toBe("免费");
    expect(priceLabel(12800)).toBe("¥128");
  });
});
