import { describe, expect, it } from "vitest";
import { isAvatarFile } from "./me";

describe("isAvatarFile", () => {
  it("takes a picture by its type, or by its name when the system left the type empty or vague", () => {
    expect(isAvatarFile({ type: "image/webp", name: "x" })).toBe(true);
    expect(isAvatarFile({ type: "", name: "头像.JPG" })).toBe(true);
    expect(isAvatarFile({ type: "application/octet-stream", name: "cover.png" })).toBe(true);
  });

  it("refuses other kinds, and a typeless file whose name is no picture's", () => {
    expect(isAvatarFile({ type: "image/gif", name: "a.gif" })).toBe(false);
    expect(isAvatarFile({ type: "image/svg+xml", name: "a.png" })).toBe(false);
    expect(isAvatarFile({ type: "", name: "notes.txt" })).toBe(false);
    expect(isAvatarFile({ type: "application/octet-stream", name: "photo" })).toBe(false);
  });
});
