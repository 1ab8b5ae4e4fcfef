/** Avatars: an uploaded picture re-encoded as a 256 × 256 WebP (api/images.ts). */
import { AVATAR_SIZE } from "../../../shared/contracts/me";
import { reencodeImage } from "../../images";

/** Checks and re-encodes an uploaded picture into the avatar we keep. */
export function makeAvatar(upload: Buffer): Promise<Buffer> {
  return reencodeImage(upload, { width: AVATAR_SIZE, height: AVATAR_SIZE, what: "头像" });
}
