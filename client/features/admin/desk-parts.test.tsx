import { describe, expect, it } from "vitest";
import { AjaxError } from "../../../shared/ajax";
import { formatAge, loaded } from "./desk-parts";

describe("desk pages", () => {
  it("keep an API failure for the page to show with a retry, but let a 404 be the 404 page", async () => {
    const refused = new AjaxError(503, "Service Unavailable", {
      error: { code: "overloaded", message: "服务繁忙，请稍后再试" },
    });
    expect(await loaded(Promise.reject(refused))).toMatchObject({
      ok: false,
      problem: { statusCode: 503, message: "服务繁忙，请稍后再试" },
    });
    expect(await loaded(Promise.resolve(7))).toEqual({ ok: true, data: 7 });
    const missing = new AjaxError(404, "Not Found", { error: { code: "not_found", message: "订单不存在" } });
    await expect(loaded(Promise.reject(missing))).rejects.toBe(missing);
  });

  it("say ages coarsely", () => {
    expect(formatAge(10_000)).toBe("刚刚");
    expect(formatAge(25 * 60_000)).toBe("25 分钟");
    expect(formatAge(200 * 60_000)).toBe("3 小时 20 分");
    expect(formatAge(52 * 3_600_000)).toBe("2 天 4 小时");
  });
});
