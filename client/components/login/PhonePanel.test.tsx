// @vitest-environment happy-dom
/**
 * A site that cannot send SMS (pro without SMS_PROVIDER) answers 获取验证码 with 503 and a
 * Chinese reason: the panel shows that reason where the visitor looks, not a generic failure.
 */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PhonePanel } from "./PhonePanel";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const UNAVAILABLE = "短信服务暂未开通，暂时无法发送短信验证码，请改用其他方式登录或联系客服";

let container: HTMLDivElement;
let root: Root;
const requests: string[] = [];

beforeEach(() => {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      requests.push(String(input));
      return new Response(JSON.stringify({ error: { code: "sms_unavailable", message: UNAVAILABLE } }), {
        status: 503,
        headers: { "Content-Type": "application/json" },
      });
    }),
  );
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  vi.unstubAllGlobals();
  container.remove();
  requests.length = 0;
});

/** Types into a controlled input the way a browser does (React listens for `input`). */
function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("PhonePanel", () => {
  it("shows the site's reason when no SMS can be sent, and offers 获取验证码 again", async () => {
    act(() => root.render(<PhonePanel onLogin={vi.fn()} />));
    const phone = container.querySelector<HTMLInputElement>('input[name="phone"]');
    if (!phone) throw new Error("no phone field");
    act(() => type(phone, "13800138000"));
    const send = Array.from(container.querySelectorAll("button")).find((b) => b.textContent === "获取验证码");
    if (!send) throw new Error("no send button");
    act(() => send.click());
    // The answer arrives after a few turns of the event loop; each act() lets React show it.
    await vi.waitFor(async () => {
      await act(async () => {});
      expect(container.querySelector('[role="alert"]')).not.toBeNull();
    });
    expect(requests).toEqual(["/api/auth/sms/send"]);
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(UNAVAILABLE);
    expect(Array.from(container.querySelectorAll("button")).some((b) => b.textContent === "获取验证码")).toBe(true);
  });
});
