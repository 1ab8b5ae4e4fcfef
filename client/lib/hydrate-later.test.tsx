// @vitest-environment happy-dom
import { act, useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { hydrateLater, laterPartsLoading } from "./hydrate-later";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Counter({ label }: { label: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" id={label} onClick={() => setN(n + 1)}>
      {label} {n}
    </button>
  );
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("hydrateLater", () => {
  it("is counted as loading until its code is in, then renders in place without a fallback", async () => {
    const code = deferred<typeof Counter>();
    const Part = hydrateLater(() => code.promise);
    const waiting = laterPartsLoading();
    expect(waiting).not.toBeNull();
    code.resolve(Counter);
    await waiting;
    expect(laterPartsLoading()).toBeNull();
    const html = renderToString(<Part label="part" />);
    expect(html.replace(/<!-- -->/g, "")).toContain(">part 0</button>");
    // A boundary whose content was ready: React's plain markers, not the pending ones.
    expect(html.startsWith("<!--$-->")).toBe(true);
  });

  it("in the browser the rest of the page hydrates while the part's code is still coming; the part hydrates when it comes", async () => {
    const ready = hydrateLater(() => Promise.resolve(Counter));
    await laterPartsLoading();
    const page = (Part: typeof ready) => (
      <div>
        <Part label="part" />
        <Counter label="rest" />
      </div>
    );
    const container = document.createElement("div");
    container.innerHTML = renderToString(page(ready));
    document.body.appendChild(container);

    const code = deferred<typeof Counter>();
    const later = hydrateLater(() => code.promise);
    await act(async () => {
      hydrateRoot(container, page(later));
    });
    const part = () => container.querySelector<HTMLButtonElement>("#part")!;
    const rest = () => container.querySelector<HTMLButtonElement>("#rest")!;
    // The server's HTML of the part is kept; the rest of the page answers clicks.
    await act(async () => rest().click());
    expect(rest().textContent).toBe("rest 1");
    // A click on the part before its code came finds no handler.
    await act(async () => part().click());
    expect(part().textContent).toBe("part 0");

    await act(async () => {
      code.resolve(Counter);
      await code.promise;
    });
    // The part hydrated: its own state, from the server's HTML, now answers clicks.
    expect(part().textContent).toBe("part 0");
    await act(async () => part().click());
    expect(part().textContent).toBe("part 1");
    container.remove();
  });
});
