import { describe, expect, it } from "vitest";
import { AppError, normalizeError } from "./errors";

describe("normalizeError", () => {
  it("takes the status from statusCode, then status, then response.status, else 500", () => {
    expect(normalizeError({ statusCode: 404, status: 410, message: "a" }).statusCode).toBe(404);
    expect(normalizeError({ status: 410, message: "a" }).statusCode).toBe(410);
    expect(normalizeError({ response: { status: 502 }, message: "a" }).statusCode).toBe(502);
    expect(normalizeError(new Error("boom"))).toEqual({ statusCode: 500, message: "boom" });
    expect(normalizeError(new AppError(403, "禁止"))).toEqual({ statusCode: 403, message: "禁止" });
    expect(normalizeError({ statusCode: "500" }).statusCode).toBe(500);
  });
  it("stringifies an error without a message", () => {
    expect(normalizeError({ statusCode: 400, reason: "x" }).message).toBe('{"statusCode":400,"reason":"x"}');
    expect(normalizeError("plain").message).toBe("plain");
    expect(normalizeError(undefined)).toEqual({ statusCode: 500, message: "Error" });
  });
  it("ignores statuses that are not HTTP statuses", () => {
    expect(normalizeError({ statusCode: 42, message: "x" }).statusCode).toBe(500);
  });
});
