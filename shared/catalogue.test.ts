import { describe, expect, it } from "vitest";
import { bookByline } from "./catalogue";

describe("a book's byline", () => {
  it("keeps an author's own role, says 书 for a rubbing and 著 otherwise", () => {
    expect(bookByline("许怀素 编注", "国学经典")).toBe("许怀素 编注");
    expect(bookByline("怀仁 集", "碑帖")).toBe("怀仁 集");
    expect(bookByline("黄自元（原著）", "碑帖")).toBe("黄自元（原著）");
    expect(bookByline("欧阳询", "碑帖")).toBe("欧阳询 书");
    expect(bookByline("沈青禾", "写作")).toBe("沈青禾 著");
  });
});
