import { describe, expect, it } from "vitest";
import { startingPosition } from "./player-storage";

describe("where a lesson starts", () => {
  const server = { position: 40, savedAt: "2026-11-26T10:00:00.000Z" };
  const at = (iso: string) => Date.parse(iso);

  it("takes the position this browser kept when it is newer than the server's (a report still on its way)", () => {
    expect(startingPosition(server, { position: 52, savedAt: at("2026-11-26T10:00:05.000Z") })).toBe(52);
  });

  it("takes the server's when it is newer (watched on another device since)", () => {
    expect(startingPosition(server, { position: 12, savedAt: at("2026-11-26T09:00:00.000Z") })).toBe(40);
  });

  it("takes the browser's when the server has none, and 0 when neither has one", () => {
    expect(startingPosition({ position: 0, savedAt: null }, { position: 9, savedAt: 1 })).toBe(9);
    expect(startingPosition(null, { position: 9, savedAt: 1 })).toBe(9);
    expect(startingPosition(null, null)).toBe(0);
    expect(startingPosition(server, null)).toBe(40);
  });
});
