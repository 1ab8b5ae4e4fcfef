import { describe, expect, it, vi } from "vitest";
import { FIRST_START, firstStartInChild } from "./first-start";

const logger = () => ({ info: vi.fn(), error: vi.fn() });

describe("the first start's own process", () => {
  it("runs the entry with --first-start and reports success", () => {
    const log = logger();
    const spawn = vi.fn(() => ({ status: 0, signal: null, error: undefined }));
    expect(firstStartInChild("/srv/main.js", log, spawn)).toBe(true);
    expect(spawn).toHaveBeenCalledWith(process.execPath, ["/srv/main.js", FIRST_START], { stdio: "inherit" });
    expect(log.error).not.toHaveBeenCalled();
  });

  it("says how it failed (a signal, an exit code) and leaves the work to the node", () => {
    const log = logger();
    const crashed = vi.fn(() => ({ status: null, signal: "SIGSEGV" as NodeJS.Signals, error: undefined }));
    expect(firstStartInChild("/srv/main.js", log, crashed)).toBe(false);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ status: null, signal: "SIGSEGV" }),
      expect.stringContaining("preparing the database in this process instead"),
    );
    const exited = vi.fn(() => ({ status: 1, signal: null, error: undefined }));
    expect(firstStartInChild("/srv/main.js", log, exited)).toBe(false);
    expect(log.error).toHaveBeenLastCalledWith(expect.objectContaining({ status: 1 }), expect.any(String));
  });
});
