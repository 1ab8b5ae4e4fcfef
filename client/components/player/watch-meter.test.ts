import { describe, expect, it } from "vitest";
import { WatchMeter } from "./watch-meter";

describe("WatchMeter", () => {
  it("counts playback, not jumps, and carries fractions to the next report", () => {
    const meter = new WatchMeter();
    meter.jump(0);
    for (let t = 0.25; t <= 10; t += 0.25) meter.tick(t);
    meter.tick(25); // a seek forward
    meter.tick(25.5);
    meter.tick(12); // a seek back
    meter.tick(12.4);
    expect(meter.take()).toBe(10);
    expect(meter.take()).toBe(0);
    meter.tick(13);
    expect(meter.take()).toBe(1);
  });

  it("gives at most what a report may carry, and takes back what did not arrive", () => {
    const meter = new WatchMeter();
    meter.jump(0);
    for (let t = 0.5; t <= 90; t += 0.5) meter.tick(t);
    expect(meter.take(60)).toBe(60);
    meter.giveBack(60);
    expect(meter.take(60)).toBe(60);
    expect(meter.take(60)).toBe(30);
  });
});
