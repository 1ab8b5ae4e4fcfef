import { describe, expect, it } from "vitest";
import { HOMEWORK_UNSUPPORTED_TYPE } from "../../../shared/contracts/homework";
import {
  acceptPhotos,
  fitLongSide,
  isHeicFile,
  isSupportedPhoto,
  nextToUpload,
  readyPhotoIds,
  type UploadItem,
  uploadReducer,
} from "./upload";

const file = (name: string, type: string) => new File(["x"], name, { type });
const photo = (id: string) => ({ id, width: 10, height: 10, url: `/p/${id}`, thumbUrl: `/t/${id}` });

function listOf(count: number): readonly UploadItem[] {
  let n = 0;
  const files = Array.from({ length: count }, (_, i) => file(`${i}.jpg`, "image/jpeg"));
  return uploadReducer([], { type: "add", files, makeId: () => `id-${n++}` });
}

describe("fitLongSide", () => {
  it("scales the long side down to 2048 and keeps the aspect", () => {
    expect(fitLongSide(4032, 3024)).toEqual({ width: 2048, height: 1536 });
    expect(fitLongSide(3000, 6000)).toEqual({ width: 1024, height: 2048 });
  });

  it("never enlarges a small photo", () => {
    expect(fitLongSide(800, 600)).toEqual({ width: 800, height: 600 });
  });
});

describe("choosing photos", () => {
  it("accepts JPEG, PNG, WebP and HEIC, and refuses anything else with the Chinese message", () => {
    expect(isSupportedPhoto(file("a.jpg", "image/jpeg"))).toBe(true);
    expect(isSupportedPhoto(file("a.webp", ""))).toBe(true);
    expect(isSupportedPhoto(file("a.heic", "image/heic"))).toBe(true);
    expect(isSupportedPhoto(file("IMG_0001.HEIC", ""))).toBe(true);
    expect(isSupportedPhoto(file("a.heif", "image/heif"))).toBe(true);
    expect(isHeicFile(file("IMG_0001.HEIC", ""))).toBe(true);
    expect(isHeicFile(file("a.jpg", "image/jpeg"))).toBe(false);
    const result = acceptPhotos([file("a.gif", "image/gif"), file("b.png", "image/png")], 9, 9);
    expect(result.accepted.map((f) => f.name)).toEqual(["b.png"]);
    expect(result.message).toBe(HOMEWORK_UNSUPPORTED_TYPE);
  });

  it("puts the draft kept on the server first, uploaded, each photo once", () => {
    let n = 0;
    const makeId = () => `d-${n++}`;
    const picked = listOf(1);
    const restored = uploadReducer(picked, { type: "restore", photos: [photo("a"), photo("b")], max: 9, makeId });
    expect(restored.map((i) => i.photo?.id ?? "new")).toEqual(["a", "b", "new"]);
    expect(restored.slice(0, 2).map((i) => [i.status, i.preview])).toEqual([
      ["done", "/t/a"],
      ["done", "/t/b"],
    ]);
    // Opening the dialog again lists the same draft: nothing doubles.
    expect(uploadReducer(restored, { type: "restore", photos: [photo("a"), photo("b")], max: 9, makeId })).toBe(
      restored,
    );
    // The picked photo's upload comes back as a photo the draft already listed: once.
    const uploaded = uploadReducer(restored, { type: "uploaded", id: picked[0]!.id, photo: photo("b") });
    expect(uploaded.map((i) => i.photo?.id)).toEqual(["a", "b"]);
    // Never more than the task allows.
    expect(uploadReducer([], { type: "restore", photos: [photo("x"), photo("y")], max: 1, makeId })).toHaveLength(1);
  });

  it("takes no more than the room left", () => {
    const files = [file("a.jpg", "image/jpeg"), file("b.jpg", "image/jpeg"), file("c.jpg", "image/jpeg")];
    const result = acceptPhotos(files, 1, 9);
    expect(result.accepted).toHaveLength(1);
    expect(result.message).toContain("多出的 2 张");
  });
});

describe("the upload list", () => {
  it("keeps a photo's Idempotency-Key when its upload is retried", () => {
    let items = listOf(2);
    const [first] = items;
    if (!first) throw new Error("no item");
    items = uploadReducer(items, { type: "compressing", id: first.id });
    items = uploadReducer(items, { type: "failed", id: first.id, error: "上传失败" });
    items = uploadReducer(items, { type: "retry", id: first.id });
    expect(items[0]).toMatchObject({ key: first.key, status: "queued", error: null });
    expect(new Set(items.map((i) => i.key)).size).toBe(2);
  });

  it("uploads one at a time in order", () => {
    let items = listOf(2);
    expect(nextToUpload(items)?.id).toBe(items[0]?.id);
    items = uploadReducer(items, { type: "compressing", id: items[0]?.id ?? "" });
    expect(nextToUpload(items)).toBeNull();
  });

  it("moves photos left and right, not past the ends, and hands them in in that order", () => {
    let items = listOf(3);
    const ids = items.map((i) => i.id);
    items = uploadReducer(items, { type: "move", id: ids[2] ?? "", by: -1 });
    items = uploadReducer(items, { type: "move", id: ids[0] ?? "", by: -1 });
    expect(items.map((i) => i.id)).toEqual([ids[0], ids[2], ids[1]]);
    expect(readyPhotoIds(items)).toBeNull();
    for (const item of items)
      items = uploadReducer(items, { type: "uploaded", id: item.id, photo: photo(`p${item.id}`) });
    expect(readyPhotoIds(items)).toEqual([`p${ids[0]}`, `p${ids[2]}`, `p${ids[1]}`]);
  });
});
