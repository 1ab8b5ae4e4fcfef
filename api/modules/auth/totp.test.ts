/** The app codes against RFC 6238's own test vector, and the step a code is taken for. */
import { describe, expect, it } from "vitest";
import { newTotpSecret, totpStep, totpUri } from "./totp";

// RFC 6238 appendix B: the ASCII secret "12345678901234567890", SHA-1; at 59 s the 8-digit
// code is 94287082, so the 6-digit one is 287082 (step 1).
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("totp", () => {
  it("matches the RFC's code and says which step it belongs to", () => {
    expect(totpStep(RFC_SECRET, "287082", new Date(59_000))).toBe(1);
    // One step of drift either way is allowed, and the step is still the code's own.
    expect(totpStep(RFC_SECRET, "287082", new Date(89_000))).toBe(1);
    expect(totpStep(RFC_SECRET, "287082", new Date(29_000))).toBe(1);
    expect(totpStep(RFC_SECRET, "287082", new Date(120_000))).toBeNull();
    expect(totpStep(RFC_SECRET, "287083", new Date(59_000))).toBeNull();
  });

  it("makes 160-bit secrets and the otpauth link apps read", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(totpUri(secret, "墨池课堂", "op@example.cn"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret,
      issuer: "墨池课堂",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});
