/**
 * The login dialog of the header. Accounts (phone, e-mail, scan-code and the other panels)
 * arrive with the accounts service; until then the dialog says so rather than pretending.
 */
import { Modal } from "../lib/modal";

export function LoginDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="登录墨池课堂" className="login-dialog">
      <div className="login-dialog__body" data-testid="login-dialog">
        <p>账号登录（手机验证码、邮箱、扫码登录）正在接入中，暂时还不能登录。</p>
        <p>课程、直播、书籍和文房页面无需登录即可浏览。</p>
        <button type="button" className="button" onClick={onClose}>
          知道了
        </button>
      </div>
    </Modal>
  );
}
