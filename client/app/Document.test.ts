import { describe, expect, it } from "vitest";
import { absoluteJsonLd } from "./Document";

describe("structured data addresses", () => {
  it("puts the public origin in front of site-relative addresses, only where an address belongs", () => {
    const data = {
      "@type": "Course",
      url: "/course/1",
      image: ["/media/cover/ink/6c38.svg"],
      provider: { "@type": "Organization", url: "/" },
      sameAs: "https://example.cn/x",
      name: "/ 不是地址的文字也以斜杠开头",
      logo: "//cdn.example.cn/a.png",
      potentialAction: { "@type": "SearchAction", target: "/search?q={search_term_string}" },
      price: 199,
    };
    expect(absoluteJsonLd(data, "https://www.mochi.cn")).toEqual({
      "@type": "Course",
      url: "https://www.mochi.cn/course/1",
      image: ["https://www.mochi.cn/media/cover/ink/6c38.svg"],
      provider: { "@type": "Organization", url: "https://www.mochi.cn/" },
      sameAs: "https://example.cn/x",
      name: "/ 不是地址的文字也以斜杠开头",
      logo: "//cdn.example.cn/a.png",
      potentialAction: { "@type": "SearchAction", target: "https://www.mochi.cn/search?q={search_term_string}" },
      price: 199,
    });
  });
});
