import { describe, expect, it } from "vitest";
import { serializeForScript } from "./serialize";

describe("serializeForScript", () => {
  it("escapes everything that could end a script or a string, and round-trips", () => {
    const value = { a: "</script><!-- x -->", b: "\u2028\u2029", c: "a & b", d: [1, null, "墨"] };
    const out = serializeForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});
