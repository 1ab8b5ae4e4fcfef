/** Floating buttons at the right edge: customer service and back to top. */
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { useRootData } from "../lib/root-data";
import { Modal } from "../lib/modal";

export function FloatingActions() {
  const { servicePhone, serviceEmail } = useRootData();
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
      <button type="button" className="floating-actions__button" onClick={() => setServiceOpen(true)}>
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
      <Modal open={serviceOpen} onClose={() => setServiceOpen(false)} title="联系客服">
        <dl className="service-card">
          <dt>客服电话</dt>
          <dd>
            <a href={`tel:${servicePhone}`}>{servicePhone}</a>（每日 9:00–21:00）
          </dd>
          <dt>电子邮箱</dt>
          <dd>
            <a href={`mailto:${serviceEmail}`}>{serviceEmail}</a>
          </dd>
        </dl>
        <p>
          也可以在
          <Link to="/protocol/feedback" onClick={() => setServiceOpen(false)}>
            意见反馈
          </Link>
          留言，我们会在两个工作日内回复。
        </p>
      </Modal>
    </div>
  );
}
