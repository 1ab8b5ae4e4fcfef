// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ClientPlugins, MOBILE_BANNER_CLOSED } from "./client-plugins";
import { DocumentProvider, type RootData } from "./root-data";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156";

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  sessionStorage.clear();
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

async function show(userAgent: string, mobileSiteUrl: string | undefined) {
  vi.stubGlobal("navigator", { ...navigator, userAgent });
  const data = { mobileSiteUrl } as unknown as RootData;
  await act(async () => {
    root.render(
      <DocumentProvider value={{ root: data, nonce: "", boot: "" }}>
        <ClientPlugins />
      </DocumentProvider>,
    );
  });
}

const banner = () => container.querySelector('section[aria-label="移动版提示"]');

describe("the mobile site banner", () => {
  it("shows a phone's visitor the mobile site once its code has loaded; closed, it stays closed for the visit", async () => {
    await show(IPHONE, "https://m.example.cn/");
    await vi.waitFor(() => expect(banner()).not.toBeNull());
    expect(banner()!.querySelector("a")!.getAttribute("href")).toBe("https://m.example.cn/");
    act(() => banner()!.querySelector<HTMLButtonElement>('button[aria-label="关闭"]')!.click());
    expect(banner()).toBeNull();
    expect(sessionStorage.getItem(MOBILE_BANNER_CLOSED)).toBe("closed");

    act(() => root.unmount());
    root = createRoot(container);
    await show(IPHONE, "https://m.example.cn/");
    await new Promise((r) => setTimeout(r, 50));
    expect(banner()).toBeNull();
  });

  it("shows nothing on a computer, nor without a mobile site", async () => {
    await show(DESKTOP, "https://m.example.cn/");
    await new Promise((r) => setTimeout(r, 50));
    expect(banner()).toBeNull();
    act(() => root.unmount());
    root = createRoot(container);
    await show(IPHONE, undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(banner()).toBeNull();
  });
});
