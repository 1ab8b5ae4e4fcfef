/**
 * The "go live" check: does the stream arrive where viewers play it? The HLS playlist is read
 * twice a few seconds apart; a live stream lists segments and moves on (its newest segment
 * changes). The demo broadcaster counts as an arriving stream.
 */
export interface PlaylistFacts {
  live: boolean;
  newest: number | null;
}

/** The newest media sequence a playlist lists, and whether it is live (no ENDLIST). */
export function readPlaylist(text: string): PlaylistFacts | null {
  if (!text.startsWith("#EXTM3U")) return null;
  const first = /#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text);
  const segments = text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#")).length;
  if (segments === 0) return { live: !text.includes("#EXT-X-ENDLIST"), newest: null };
  const start = first ? Number(first[1]) : 0;
  return { live: !text.includes("#EXT-X-ENDLIST"), newest: start + segments - 1 };
}

export type StreamVerdict = "arriving" | "stalled" | "missing";

export function verdictOf(before: PlaylistFacts | null, after: PlaylistFacts | null): StreamVerdict {
  if (!before || !after || after.newest === null) return "missing";
  if (before.newest !== null && after.newest > before.newest && after.live) return "arriving";
  return "stalled";
}

export const VERDICT_TEXT: Record<StreamVerdict, string> = {
  arriving: "推流正常：画面正在更新，学员进入直播间就能看到。",
  stalled: "收到了推流，但画面没有更新：请检查推流软件是否在推送。",
  missing: "还没有收到推流：请确认推流地址和串流密钥填写正确，并已点击“开始推流”。",
};

async function fetchFacts(url: string, signal?: AbortSignal): Promise<PlaylistFacts | null> {
  try {
    const res = await fetch(url, { cache: "no-store", signal });
    if (!res.ok) return null;
    return readPlaylist(await res.text());
  } catch {
    return null;
  }
}

export async function checkStream(url: string, waitMs = 4000, signal?: AbortSignal): Promise<StreamVerdict> {
  const before = await fetchFacts(url, signal);
  if (!before) return "missing";
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  return verdictOf(before, await fetchFacts(url, signal));
}
