import { describe, expect, it } from "vitest";
import { AjaxError } from "../../shared/ajax";
import { describeProblem } from "./problem";

describe("describeProblem", () => {
  it("shows the API's Chinese message and the fields it names", () => {
    const err = new AjaxError(400, "ajax error 400", {
      error: {
        code: "invalid_input",
        message: "密码至少 8 位",
        details: [{ path: "password", message: "密码至少 8 位" }],
      },
    });
    expect(describeProblem(err)).toMatchObject({
      message: "密码至少 8 位",
      fields: { password: "密码至少 8 位" },
      statusCode: 400,
    });
  });

  it("reads a 429's Retry-After from the body", () => {
    const err = new AjaxError(429, "ajax error 429", {
      error: { code: "rate_limited", message: "请 42 秒后再获取验证码", details: { retryAfter: 42 } },
    });
    expect(describeProblem(err)).toMatchObject({ message: "请 42 秒后再获取验证码", retryAfter: 42 });
  });

  it("says something useful when there is no API answer", () => {
    expect(describeProblem(new TypeError("Failed to fetch")).message).toBe("网络连接失败，请检查网络后重试");
    expect(describeProblem(new AjaxError(504, "ajax timeout")).message).toBe("请求超时，请稍后重试");
    expect(describeProblem(new AjaxError(502, "ajax error 502", "<html>")).message).toBe("服务暂时不可用，请稍后再试");
  });
});
