import { describe, expect, it } from "vitest";
import { giftCourseKind } from "./GiveawayDialog";

describe("the giveaway dialog", () => {
  it("names the kind of course given, not always 书法课", () => {
    expect(giftCourseKind("楷书")).toBe("楷书课");
    expect(giftCourseKind("写作")).toBe("写作课");
    expect(giftCourseKind("国学")).toBe("国学课");
  });
});
