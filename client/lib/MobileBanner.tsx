/** The banner that points a phone's visitor to the mobile site (client-plugins.tsx shows it). */
export default function MobileBanner({ url, onClose }: { url: string; onClose: () => void }) {
  return (
    <section className="mobile-banner" aria-label="移动版提示">
      <span>手机访问体验更好</span>
      <a className="button button--primary" href={url}>
        打开移动版
      </a>
      <button type="button" className="mobile-banner__close" aria-label="关闭" onClick={onClose}>
        ×
      </button>
    </section>
  );
}
