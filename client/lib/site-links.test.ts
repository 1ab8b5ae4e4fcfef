import { describe, expect, it } from "vitest";
import { splitSitePaths } from "./site-links";

describe("splitSitePaths", () => {
  it("splits a gift's claim link out of the notice text", () => {
    expect(
      splitSitePaths("领取码 ABCD-EFGH-JKLM，领取链接 /course/3?gift=ABCD-EFGH-JKLM。好友登录后打开链接即可领取"),
    ).toEqual([
      { text: "领取码 ABCD-EFGH-JKLM，领取链接 " },
      { path: "/course/3?gift=ABCD-EFGH-JKLM" },
      { text: "。好友登录后打开链接即可领取" },
    ]);
  });
  it("leaves text without paths, fractions and other sites alone", () => {
    expect(splitSitePaths("已完成 1/2 课时")).toEqual([{ text: "已完成 1/2 课时" }]);
    expect(splitSitePaths("见 https://example.com/x")).toEqual([{ text: "见 https://example.com/x" }]);
  });
});
