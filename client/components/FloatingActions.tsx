/** Floating buttons at the right edge: customer service and back to top. */
import { useEffect, useState } from "react";
import { lazyDialog } from "../lib/lazy-dialog";

/** Loaded the first time it opens (decision 030); hovering the button starts it earlier. */
const service = lazyDialog(() => import("./ServiceDialog").then((m) => m.ServiceDialog));
const ServiceDialog = service.Dialog;

export function FloatingActions() {
  const [showTop, setShowTop] = useState(false);
  const [serviceOpen, setServiceOpen] = useState(false);

  useEffect(() => {
    const onScroll = () => setShowTop(window.scrollY > 400);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  return (
    <div className="floating-actions">
      <button
        type="button"
        className="floating-actions__button"
        onClick={() => setServiceOpen(true)}
        onPointerEnter={service.preload}
        onFocus={service.preload}
      >
        客服
      </button>
      {showTop ? (
        <button
          type="button"
          className="floating-actions__button"
          aria-label="回到顶部"
          onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}
        >
          顶部
        </button>
      ) : null}
      <ServiceDialog open={serviceOpen} onClose={() => setServiceOpen(false)} />
    </div>
  );
}
