import { afterEach, describe, expect, it, vi } from "vitest";
import { AjaxError } from "../../shared/ajax";

afterEach(() => {
  vi.doUnmock("./problem");
  vi.resetModules();
});

describe("describeProblemLater", () => {
  it("describes a failure as describeProblem does, once the descriptions have loaded", async () => {
    const { describeProblemLater } = await import("./problem-later");
    const err = new AjaxError(409, "ajax error 409", { error: { code: "conflict", message: "已经购买过这门课" } });
    expect(await describeProblemLater(err)).toEqual({
      message: "已经购买过这门课",
      fields: {},
      retryAfter: null,
      code: "conflict",
      statusCode: 409,
    });
    expect((await describeProblemLater(new AjaxError(504, "ajax timeout"))).message).toBe("请求超时，请稍后重试");
  });

  it("says the network failed in describeProblem's words", async () => {
    const [{ describeProblem }, { NETWORK_FAILED_MESSAGE }] = await Promise.all([
      import("./problem"),
      import("./problem-later"),
    ]);
    expect(describeProblem(new TypeError("Failed to fetch")).message).toBe(NETWORK_FAILED_MESSAGE);
  });

  it("says the network failed when the descriptions themselves cannot load", async () => {
    vi.doMock("./problem", () => {
      throw new TypeError("Failed to fetch dynamically imported module: /assets/problem.js");
    });
    const { describeProblemLater, NETWORK_FAILED_MESSAGE } = await import("./problem-later");
    const problem = await describeProblemLater(new AjaxError(500, "ajax error 500"));
    expect(problem).toEqual({
      message: NETWORK_FAILED_MESSAGE,
      fields: {},
      retryAfter: null,
      code: null,
      statusCode: null,
    });
  });
});
