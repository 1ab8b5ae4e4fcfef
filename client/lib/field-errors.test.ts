import { describe, expect, it } from "vitest";
import { bookCreateSchema, commodityCreateSchema } from "../../shared/contracts/admin-catalogue";
import { fieldErrorsOf } from "./mutation";

describe("fieldErrorsOf", () => {
  it("keys a contract's refusal like the API's details, first message per field", () => {
    const book = bookCreateSchema.safeParse({
      title: "",
      author: "某",
      publisher: "某社",
      isbn: "1",
      tab: "字帖",
      priceCents: Number.NaN,
      originalPriceCents: 0,
      coverChar: "字",
      stock: -2,
    });
    expect(book.success).toBe(false);
    expect(fieldErrorsOf(book.error?.issues ?? [])).toMatchObject({
      title: "请填写书名",
      isbn: "ISBN 须是 10 或 13 位",
      priceCents: "请填写售价（元，最多两位小数）",
      stock: "初始库存不能为负",
    });
    const item = commodityCreateSchema.safeParse({
      title: "笔",
      category: "毛笔",
      coverChar: "笔",
      skus: [
        { name: "大", priceCents: 100, originalPriceCents: 100 },
        { name: "大", priceCents: 100, originalPriceCents: 50 },
      ],
    });
    expect(fieldErrorsOf(item.error?.issues ?? [])).toEqual({
      "skus.1.name": "规格名称不能重复",
      "skus.1.originalPriceCents": "划线价不能低于售价",
    });
  });
});
