import type { TestBrowser } from "./helpers";

export interface SseEvent {
  event: string;
  id?: string;
  data: unknown;
}

/**
 * Reads a Server-Sent Events stream as it arrives: the events that carry data (JSON) and the
 * comment lines (heartbeats), with waits on either and on the end of the stream.
 */
export async function readEventStream(browser: TestBrowser, path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await browser.fetch(path, {
    signal: controller.signal,
    headers: { Accept: "text/event-stream", ...headers },
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let notify = () => {};
  let ended = false;
  const reading = (async () => {
    if (res.status !== 200 || !res.body) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { event: "message", data: null };
          let hasData = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) comments.push(line);
            else if (line.startsWith("event:")) event.event = line.slice(6).trim();
            else if (line.startsWith("id:")) event.id = line.slice(3).trim();
            else if (line.startsWith("data:")) {
              event.data = JSON.parse(line.slice(5));
              hasData = true;
            }
          }
          if (hasData) events.push(event);
          notify();
        }
      }
    } catch {
      // aborted by the test
    } finally {
      ended = true;
      notify();
    }
  })();
  const until = (done: () => boolean, what: string, ms = 5000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; saw ${JSON.stringify(events.slice(-5))}`)),
        ms,
      );
      const check = () => {
        if (done()) {
          clearTimeout(timer);
          resolve();
        }
      };
      const previous = notify;
      notify = () => {
        previous();
        check();
      };
      check();
    });
  return {
    res,
    events,
    comments,
    until,
    ended: (ms?: number) => until(() => ended, "the end of the stream", ms),
    isEnded: () => ended,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}
