import { describe, expect, it } from "vitest";
import { httpDuration, httpRequests } from "../api/metrics";
import { countResponse } from "./metrics";

type Labels = Record<string, string>;
const matches = (have: Partial<Record<string, string | number>>, want: Labels) =>
  Object.entries(want).every(([name, value]) => have[name] === value);

async function requests(labels: Labels): Promise<number> {
  return (await httpRequests.get()).values.find((v) => matches(v.labels, labels))?.value ?? 0;
}

async function timed(labels: Labels): Promise<number> {
  const count = (await httpDuration.get()).values.find(
    (v) => v.metricName === "mochi_http_request_duration_seconds_count" && matches(v.labels, labels),
  );
  return count?.value ?? 0;
}

describe("countResponse (Express's responses and page cache hits alike)", () => {
  it("counts and times a response by method, route pattern and status, and returns its seconds", async () => {
    const labels = { method: "GET", route: "/test/:counted", status: "200" };
    const [counted, observed] = [await requests(labels), await timed(labels)];
    const seconds = countResponse("GET", "/test/:counted", 200, process.hrtime.bigint() - 5_000_000n);
    expect(seconds).toBeGreaterThanOrEqual(0.005);
    expect(seconds).toBeLessThan(5);
    expect(await requests(labels)).toBe(counted + 1);
    expect(await timed(labels)).toBe(observed + 1);
  });

  it("labels methods outside the usual set as OTHER, never as sent", async () => {
    const labels = { method: "OTHER", route: "/test/:other", status: "405" };
    const before = await requests(labels);
    countResponse("PROPFIND", "/test/:other", 405, process.hrtime.bigint());
    expect(await requests(labels)).toBe(before + 1);
    expect(await requests({ method: "PROPFIND", route: "/test/:other" })).toBe(0);
  });
});
