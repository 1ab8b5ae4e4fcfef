import { describe, expect, it, vi } from "vitest";
import { isChunkLoadError, reloadOnceForChunkError } from "./chunk-reload";

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe("chunk load failures", () => {
  it("recognises the browsers' dynamic import failures", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: http://x/assets/a.js"))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Loading chunk 12 failed."))).toBe(true);
    expect(isChunkLoadError(new Error("something else"))).toBe(false);
  });

  it("reloads once, then not again within 60 s, then again after", () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnceForChunkError(storage, 1_000_000, reload)).toBe(true);
    expect(storage.m.get("nuxt-reload")).toBe("1000000");
    expect(reloadOnceForChunkError(storage, 1_059_999, reload)).toBe(false);
    expect(reloadOnceForChunkError(storage, 1_060_001, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
