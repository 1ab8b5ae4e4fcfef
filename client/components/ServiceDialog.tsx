/** 联系客服: the service phone and e-mail, and the way to feedback (opened from the floating buttons). */
import { Link } from "../routing/link";
import { useRootData } from "../lib/root-data";
import { Modal } from "../lib/modal";

export function ServiceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { servicePhone, serviceEmail } = useRootData();
  return (
    <Modal open={open} onClose={onClose} title="联系客服">
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
        <Link to="/protocol/feedback" onClick={onClose}>
          意见反馈
        </Link>
        留言，我们会在两个工作日内回复。
      </p>
    </Modal>
  );
}
