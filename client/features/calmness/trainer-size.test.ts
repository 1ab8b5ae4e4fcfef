import { describe, expect, it } from "vitest";
import { PHONE_TRAINER_MAX, TRAINER_SIZE, trainerSize } from "./Trainer";

describe("the writing square's side", () => {
  it("stays today's 320 px on wider screens, whatever room there is", () => {
    expect(trainerSize(false, 900)).toBe(TRAINER_SIZE);
    expect(trainerSize(false, 200)).toBe(TRAINER_SIZE);
  });

  it("takes the whole width on a phone, in whole pixels, up to a limit", () => {
    expect(trainerSize(true, 333.6)).toBe(333);
    expect(trainerSize(true, 280)).toBe(280);
    expect(trainerSize(true, 700)).toBe(PHONE_TRAINER_MAX);
  });

  it("falls back to 320 px before the trainer has been measured", () => {
    expect(trainerSize(true, 0)).toBe(TRAINER_SIZE);
  });
});
