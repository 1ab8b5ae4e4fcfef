import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Highlighted } from "./CatalogueCards";

const html = (text: string, highlight?: string) =>
  renderToStaticMarkup(<Highlighted text={text} highlight={highlight} />);

describe("Highlighted", () => {
  it("marks every match, case-insensitively, keeping the text's own case", () => {
    expect(html("楷书入门·楷书进阶", "楷书")).toBe("<mark>楷书</mark>入门·<mark>楷书</mark>进阶");
    expect(html("Brush and BRUSH", "brush")).toBe("<mark>Brush</mark> and <mark>BRUSH</mark>");
  });

  it("treats regular-expression characters in the words as themselves", () => {
    expect(html("a.b a*b (c) [d] 1+1 $5 ^x a|b \\z", "a.b")).toBe("<mark>a.b</mark> a*b (c) [d] 1+1 $5 ^x a|b \\z");
    for (const special of ["*", "(c)", "[d]", "+", "$", "^", "|", "\\", "."]) {
      const out = html("x (c) [d] 1+1 $5 ^x a|b \\z * .", special);
      expect(out, special).toContain(`<mark>${special}</mark>`);
    }
    expect(html("abc", ".")).toBe("abc");
    expect(html("abc", ".*")).toBe("abc");
  });

  it("leaves text without a match, or without words, as it is, and escapes markup in it", () => {
    expect(html("兰亭序", "九成宫")).toBe("兰亭序");
    expect(html("兰亭序", "")).toBe("兰亭序");
    expect(html("兰亭序")).toBe("兰亭序");
    expect(html("<b>兰亭</b>", "兰亭")).toBe("&lt;b&gt;<mark>兰亭</mark>&lt;/b&gt;");
  });
});
