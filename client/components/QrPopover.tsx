/** A small pop-up with a QR code (the mobile site, a share link), opened on hover or focus. */
import { NewWindowLink } from "./NewWindowLink";

export function QrPopover({
  label,
  svg,
  caption,
  href,
}: {
  label: string;
  svg: string;
  caption: string;
  href: string;
}) {
  return (
    <details className="qr-popover">
      <summary className="qr-popover__summary">{label}</summary>
      <div className="qr-popover__panel">
        {/* SVG markup made on our server by the qrcode library, never user input. */}
        <div className="qr-popover__code" dangerouslySetInnerHTML={{ __html: svg }} />
        <p className="qr-popover__caption">{caption}</p>
        <NewWindowLink className="qr-popover__link" href={href}>
          {href}
        </NewWindowLink>
      </div>
    </details>
  );
}
