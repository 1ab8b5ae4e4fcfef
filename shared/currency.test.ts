import { describe, expect, it } from "vitest";
import { bishanForPayment, maxCoinsFor } from "./currency";

describe("coins as a deduction", () => {
  it("takes at most 30 % of the price", () => {
    expect(maxCoinsFor(19_900, 0, 100_000)).toBe(5970);
    expect(maxCoinsFor(999, 0, 100_000)).toBe(299);
  });
  it("never more than the learner has", () => {
    expect(maxCoinsFor(19_900, 0, 120)).toBe(120);
    expect(maxCoinsFor(19_900, 0, 0)).toBe(0);
  });
  it("always leaves at least 1 fen to pay after the coupon", () => {
    expect(maxCoinsFor(10_000, 9_900, 100_000)).toBe(99);
    expect(maxCoinsFor(10_000, 9_999, 100_000)).toBe(0);
    expect(maxCoinsFor(10_000, 10_000, 100_000)).toBe(0);
  });
});

describe("bishan for a payment", () => {
  it("is 1 per full 10 yuan", () => {
    expect(bishanForPayment(999)).toBe(0);
    expect(bishanForPayment(1000)).toBe(1);
    expect(bishanForPayment(19_999)).toBe(19);
  });
});
