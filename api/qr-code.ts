/** The site's QR codes for a link shown on a page: SVG, ink on rice paper, medium error correction. */
import QRCode from "qrcode";

export function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, {
    type: "svg",
    margin: 1,
    errorCorrectionLevel: "M",
    color: { dark: "#222222", light: "#fffdf8" },
  });
}
