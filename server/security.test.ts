import { describe, expect, it } from "vitest";
import { freshNonce, securityHeaders } from "./security";

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

describe("securityHeaders", () => {
  const run = (handler: ReturnType<typeof securityHeaders>, nonce: string) => {
    const headers = new Map<string, string>();
    const res = {
      locals: { cspNonce: nonce },
      setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
      removeHeader: (name: string) => headers.delete(name),
    };
    let next = false;
    handler({} as never, res as never, (() => (next = true)) as never);
    expect(next).toBe(true);
    return headers;
  };

  it("sets helmet's page headers once worked out, with each response's own nonce in its CSP", () => {
    const handler = securityHeaders({ production: true, https: true });
    const a = run(handler, "AAAAAAAAAAAAAAAAAAAAAA==");
    const b = run(handler, "BBBBBBBBBBBBBBBBBBBBBB==");
    const csp = a.get("Content-Security-Policy")!;
    expect(csp).toContain("script-src 'self' 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("upgrade-insecure-requests");
    expect(csp).not.toContain("\u0000");
    expect(b.get("Content-Security-Policy")).toBe(csp.replace("AAAAAAAAAAAAAAAAAAAAAA==", "BBBBBBBBBBBBBBBBBBBBBB=="));
    expect(a.get("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    expect(a.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(a.get("X-Content-Type-Options")).toBe("nosniff");
    for (const [name, value] of a) if (name !== "Content-Security-Policy") expect(b.get(name)).toBe(value);
  });

  it("leaves HSTS and upgrade-insecure-requests out on a plain-HTTP origin", () => {
    const headers = run(securityHeaders({ production: true, https: false }), "CCCCCCCCCCCCCCCCCCCCCC==");
    expect(headers.has("Strict-Transport-Security")).toBe(false);
    expect(headers.get("Content-Security-Policy")).not.toContain("upgrade-insecure-requests");
  });
});
