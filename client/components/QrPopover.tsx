/** A small pop-up with a QR code (the mobile site, a share link), opened on hover or focus. */
import { NewWindowLink } from "./NewWindowLink";

/**
 * The code is either SVG markup made on our server (`svg`, the header's mobile-site code) or an
 * address of one (`src`, e.g. `/media/qr.svg?path=…`), loaded only when the pop-up opens.
 */
export function QrPopover({
  label,
  svg,
  src,
  caption,
  href,
  className,
}: {
  label: string;
  caption: string;
  href: string;
  className?: string;
} & ({ svg: string; src?: never } | { src: string; svg?: never })) {
  return (
    <details className={className ? `qr-popover ${className}` : "qr-popover"}>
      <summary className="qr-popover__summary">{label}</summary>
      <div className="qr-popover__panel">
        {svg !== undefined ? (
          // SVG markup made on our server by the qrcode library, never user input.
          <div className="qr-popover__code" dangerouslySetInnerHTML={{ __html: svg }} />
        ) : (
          <div className="qr-popover__code">
            <img src={src} alt={`${caption}（二维码）`} width={172} height={172} loading="lazy" />
          </div>
        )}
        <p className="qr-popover__caption">{caption}</p>
        <NewWindowLink className="qr-popover__link" href={href}>
          {href}
        </NewWindowLink>
      </div>
    </details>
  );
}
