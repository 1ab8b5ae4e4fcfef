/** The homework ids that paths carry; a malformed one names no homework (404). */
import { idParam, textParam } from "../../endpoint";
import { HOMEWORK_NOT_FOUND } from "./homework";
import { PHOTO_ID } from "./photos";

export const taskId = idParam("作业 id", HOMEWORK_NOT_FOUND);
/** Submission, share and attempt ids: short URL-safe text. */
export const keyParam = (description: string) => textParam(/^[A-Za-z0-9_-]{1,64}$/, description, HOMEWORK_NOT_FOUND);
export const photoParam = { photoId: textParam(PHOTO_ID, "照片 id（随机，不可猜测）", "照片不存在") };
