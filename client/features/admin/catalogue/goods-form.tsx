/**
 * What the 新建图书 and 新建文房 pages share: the cover picked before the item exists (checked
 * like an avatar, sent once the item is created), the on-sale choice, and the notice the editor
 * shows when the item was created but its cover was not taken.
 */
import { useLocation } from "react-router-dom";
import { AVATAR_MAX_BYTES, AVATAR_TYPES, isAvatarFile } from "../../../../shared/contracts/me";
import { Field } from "../../../components/staff/staff-kit";
import { describeProblem } from "../../../lib/problem";
import { uploadFile } from "./catalogue-api";

/** Why a picked cover would be refused (the API checks the bytes again), or null. */
export function coverFileProblem(file: File | null): string | null {
  if (!file) return null;
  if (!isAvatarFile(file)) return "封面只能是 JPEG、PNG 或 WebP 图片";
  if (file.size > AVATAR_MAX_BYTES) return "封面图片不能超过 5 MB";
  return null;
}

export function CoverPicker({
  error,
  hint,
  onPick,
}: {
  error?: string | undefined;
  hint: string;
  onPick: (file: File | null) => void;
}) {
  return (
    <Field label="封面图片（可选）" hint={hint} error={error}>
      {(id, describedBy) => (
        <input
          id={id}
          type="file"
          accept={AVATAR_TYPES.join(",")}
          aria-describedby={describedBy}
          onChange={(e) => onPick(e.target.files?.[0] ?? null)}
        />
      )}
    </Field>
  );
}

export function OnSaleChoice({
  checked,
  onChange,
  error,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
}) {
  return (
    <Field label="上架状态" error={error} hint="不勾选则先保存为未上架，之后在编辑页上架">
      {(id, describedBy) => (
        <label className="catalogue-check">
          <input
            id={id}
            type="checkbox"
            checked={checked}
            aria-describedby={describedBy}
            onChange={(e) => onChange(e.target.checked)}
          />{" "}
          创建后立即上架
        </label>
      )}
    </Field>
  );
}

/** Sends the picked cover of a just-created item; a refusal becomes the editor's notice instead of an error. */
export async function sendCover(endpoint: string, file: File | null): Promise<string | null> {
  if (!file) return null;
  try {
    await uploadFile(endpoint, file);
    return null;
  } catch (err) {
    return `已创建，但封面没有上传成功（${describeProblem(err).message}），请在下面重新上传。`;
  }
}

export interface CreatedState {
  notice: string | null;
}

/** On the editor: what the creation page left to say (a cover that was not taken). */
export function CreatedNotice() {
  const state = useLocation().state as CreatedState | null;
  if (!state?.notice) return null;
  return (
    <p className="staff-message staff-message--error" role="alert">
      {state.notice}
    </p>
  );
}
