import { describe, expect, it } from "vitest";
import { livePlaylist } from "../../../server/broadcaster";
import { readPlaylist, verdictOf } from "./stream-check";

describe("the go-live check", () => {
  it("counts the demo broadcaster's moving playlist as an arriving stream", () => {
    const t = 1_800_000_000_000;
    const before = readPlaylist(livePlaylist(t));
    const after = readPlaylist(livePlaylist(t + 4000));
    expect(before?.live).toBe(true);
    expect(verdictOf(before, after)).toBe("arriving");
  });

  it("tells a stalled stream and a missing one apart", () => {
    const t = 1_800_000_000_000;
    const same = readPlaylist(livePlaylist(t));
    expect(verdictOf(same, same)).toBe("stalled");
    expect(verdictOf(null, null)).toBe("missing");
    expect(readPlaylist("<html>not found</html>")).toBeNull();
    const ended = readPlaylist("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:3\n#EXTINF:3,\na.ts\n#EXT-X-ENDLIST\n");
    expect(ended).toEqual({ live: false, newest: 3 });
  });
});
