// @vitest-environment happy-dom
/**
 * useMutation's submit with a schema given as a promise (decision 050): the check loads with the first
 * submission, the form is busy meanwhile, and a check that fails to load says so instead of
 * doing nothing.
 */
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { useMutation } from "./mutation";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const schema = z.object({ name: z.string().min(2, "至少两个字") });

let form: ReturnType<typeof useMutation>;
function Probe() {
  form = useMutation();
  return null;
}

let root: Root;
beforeEach(() => {
  const container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  act(() => root.render(<Probe />));
});
afterEach(() => act(() => root.unmount()));

/** A schema that arrives when `arrive` is called, as a contract module's chunk would. */
function later<T>(value: T) {
  let arrive!: () => void;
  const promise = new Promise<T>((resolve) => (arrive = () => resolve(value)));
  return { promise, arrive };
}

describe("useMutation's submit with a schema that loads on first submission", () => {
  it("is busy while the schema loads, then calls the API with the parsed values", async () => {
    const call = vi.fn(async (input: { name: string }) => `sent ${input.name}`);
    const loading = later(schema);
    let result: Promise<string | undefined> | undefined;
    act(() => {
      result = form.submit(loading.promise, { name: "临池" }, call);
    });
    expect(form.busy).toBe(true);
    expect(call).not.toHaveBeenCalled();
    // A second press while the check loads sends nothing more.
    let second: Promise<string | undefined> | undefined;
    act(() => {
      second = form.submit(loading.promise, { name: "临池" }, call);
    });
    await act(async () => {
      loading.arrive();
      await result;
    });
    expect(await result).toBe("sent 临池");
    expect(await second).toBeUndefined();
    expect(call).toHaveBeenCalledTimes(1);
    expect(form.busy).toBe(false);
  });

  it("shows the field errors of the loaded schema and calls nothing", async () => {
    const call = vi.fn(async () => "sent");
    await act(async () => {
      await form.submit(Promise.resolve(schema), { name: "一" }, call);
    });
    expect(call).not.toHaveBeenCalled();
    expect(form.errors).toEqual({ name: "至少两个字" });
    expect(form.busy).toBe(false);
  });

  it("says what went wrong when the schema cannot load", async () => {
    const call = vi.fn(async () => "sent");
    await act(async () => {
      await form.submit(Promise.reject(new TypeError("Failed to fetch dynamically imported module")), {}, call);
    });
    expect(call).not.toHaveBeenCalled();
    expect(form.problem).not.toBeNull();
    expect(form.busy).toBe(false);
  });

  it("checks one field with a schema that loads, as before sending a code", async () => {
    let target: string | null = "";
    await act(async () => {
      target = await form.check("name", Promise.resolve(z.string().trim().min(2, "至少两个字")), "  临池 ");
    });
    expect(target).toBe("临池");
    await act(async () => {
      target = await form.check("name", Promise.resolve(z.string().min(2, "至少两个字")), "一");
    });
    expect(target).toBeNull();
    expect(form.errors).toEqual({ name: "至少两个字" });
  });
});

describe("useMutation's send", () => {
  let idempotent: ReturnType<typeof useMutation>;
  let plain: ReturnType<typeof useMutation>;
  function Senders() {
    idempotent = useMutation({ idempotent: true });
    plain = useMutation();
    return null;
  }
  let sendersRoot: Root;
  let sent: Array<{ method: string; key: string | undefined }>;
  let answers: Array<() => Response>;
  beforeEach(() => {
    sent = [];
    answers = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push({ method: String(init.method), key: (init.headers as Record<string, string>)["Idempotency-Key"] });
        const answer = answers.shift();
        if (!answer) throw new TypeError("Failed to fetch");
        return answer();
      }),
    );
    sendersRoot = createRoot(document.createElement("div"));
    act(() => sendersRoot.render(<Senders />));
  });
  afterEach(() => {
    act(() => sendersRoot.unmount());
    vi.unstubAllGlobals();
  });
  const json = (status: number, body: unknown) => () =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

  it("keeps one Idempotency-Key while the same action is retried after a network failure", async () => {
    await act(async () => {
      await idempotent.send("/api/wallet/exchange", { body: { bishan: 1 } });
    });
    expect(idempotent.problem?.message).toBe("网络连接失败，请检查网络后重试");
    answers.push(json(200, { ok: true }));
    const onSuccess = vi.fn();
    await act(async () => {
      await idempotent.send("/api/wallet/exchange", { body: { bishan: 1 }, onSuccess });
    });
    expect(onSuccess).toHaveBeenCalledWith({ ok: true });
    expect(sent[0]!.key).toBeTruthy();
    expect(sent[1]!.key).toBe(sent[0]!.key);
    expect(idempotent.problem).toBeNull();
  });

  it("sends no key unless asked, and shows the API's refusal with its fields", async () => {
    answers.push(
      json(400, {
        error: { code: "invalid_input", message: "请检查输入", details: [{ path: "name", message: "太短" }] },
      }),
    );
    const onSuccess = vi.fn();
    await act(async () => {
      await plain.send("/api/me/profile", { method: "PATCH", body: { name: "一" }, onSuccess, done: "已保存" });
    });
    expect(sent).toEqual([{ method: "PATCH", key: undefined }]);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(plain.problem?.message).toBe("请检查输入");
    expect(plain.errors).toEqual({ name: "太短" });
    expect(plain.done).toBeNull();
    expect(plain.busy).toBe(false);
  });
});
