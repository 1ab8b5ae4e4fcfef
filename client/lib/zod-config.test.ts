import { expect, it } from "vitest";

it("the browser's setting is zod's own jitless configuration, set before zod loads", async () => {
  const holder = globalThis as { __zod_globalConfig?: object };
  const saved = holder.__zod_globalConfig;
  delete holder.__zod_globalConfig;
  try {
    await import("./zod-config");
    // zod adopts the object it finds and reads its settings from it.
    const { z } = await import("zod");
    expect(z.config().jitless).toBe(true);
    expect(z.config()).toBe(holder.__zod_globalConfig);
  } finally {
    holder.__zod_globalConfig = saved;
  }
});
