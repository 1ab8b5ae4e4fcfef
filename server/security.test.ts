import { describe, expect, it } from "vitest";
import { freshNonce } from "./security";

describe("freshNonce", () => {
  it("gives 128 random bits in base64, never the same twice across refills of its pool", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i += 1) {
      const nonce = freshNonce();
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      seen.add(nonce);
    }
    expect(seen.size).toBe(1000);
  });
});
