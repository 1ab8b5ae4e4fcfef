/**
 * The one helper for links that open a new window (the live room, share pages). For a URL
 * known only after async work, the window is opened first (inside the click) so popup
 * blockers let it through, then pointed at the URL.
 */
export function openWindow(url: string): Window | null {
  return window.open(url, "_blank", "noopener,noreferrer");
}

export async function openWindowAfter(resolveUrl: () => Promise<string>): Promise<void> {
  const w = window.open("about:blank", "_blank");
  try {
    const url = await resolveUrl();
    if (w) {
      w.opener = null;
      w.location.href = url;
    } else window.location.assign(url);
  } catch (err) {
    w?.close();
    throw err;
  }
}
