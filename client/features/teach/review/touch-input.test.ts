import { describe, expect, it } from "vitest";
import { follows, PALM_PX, pointerDown, pointerUp, pressureOf, type RouterState, START } from "./touch-input";

const down = (state: RouterState, id: number, kind: string, size = 1) =>
  pointerDown(state, { id, kind, width: size, height: size });

describe("what a pointer on the review canvas starts", () => {
  it("a finger draws with the tool until a pen has been used, then a lone finger moves the photo", () => {
    const finger = down(START, 1, "touch");
    expect(finger.start).toBe("tool");
    const pen = down(pointerUp(finger.state, 1), 2, "pen");
    expect(pen.start).toBe("tool");
    expect(pen.state.penSeen).toBe(true);
    expect(down(pointerUp(pen.state, 2), 3, "touch").start).toBe("pan");
  });

  it("a second finger turns the first one's gesture into a pinch; a third is ignored", () => {
    const one = down(START, 1, "touch");
    const two = down(one.state, 2, "touch");
    expect(two.start).toBe("pinch");
    expect(follows(two.state, 1) && follows(two.state, 2)).toBe(true);
    const three = down(two.state, 3, "touch");
    expect(three.start).toBe("ignore");
    expect(follows(three.state, 3)).toBe(false);
  });

  it("a palm or a finger resting while the pen writes leaves no mark", () => {
    const pen = down(START, 1, "pen");
    const palm = down(pen.state, 2, "touch");
    expect(palm.start).toBe("ignore");
    expect(palm.state).toBe(pen.state);
    expect(down(START, 3, "touch", PALM_PX + 20).start).toBe("ignore");
    expect(down(START, 4, "touch", 24).start).toBe("tool");
  });

  it("the pen takes over from fingers already on the glass", () => {
    const finger = down(START, 1, "touch");
    const pen = down(finger.state, 2, "pen");
    expect(pen.start).toBe("tool");
    expect(follows(pen.state, 1)).toBe(false);
    expect(follows(pen.state, 2)).toBe(true);
  });

  it("the mouse draws as before, and an unknown pointer counts as a mouse", () => {
    expect(down(START, 1, "mouse").start).toBe("tool");
    expect(down(START, 1, "").start).toBe("tool");
  });

  it("lifting a pointer forgets it", () => {
    const one = down(START, 1, "touch");
    expect(follows(pointerUp(one.state, 1), 1)).toBe(false);
  });
});

describe("pressure", () => {
  it("keeps a pen's own pressure and gives everything else the neutral 0.5", () => {
    expect(pressureOf("pen", 0.8)).toBe(0.8);
    expect(pressureOf("pen", 1.4)).toBe(1);
    expect(pressureOf("pen", 0)).toBe(0.5);
    expect(pressureOf("pen", Number.NaN)).toBe(0.5);
    expect(pressureOf("touch", 0.9)).toBe(0.5);
    expect(pressureOf("mouse", 0.5)).toBe(0.5);
  });
});
