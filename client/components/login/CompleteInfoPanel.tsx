/** 完善资料: nickname, avatar, gender and region after the first login; every part may be skipped. */
import { useEffect, useId, useRef, useState } from "react";
import { AjaxError } from "../../../shared/ajax";
import { completeInfoSchema, statusOkSchema } from "../../../shared/contracts/auth";
import { AVATAR_MAX_BYTES, AVATAR_TYPES, avatarResultSchema, isAvatarFile } from "../../../shared/contracts/me";
import { viewerSchema } from "../../../shared/contracts/viewer";
import { REGIONS } from "../../../shared/regions";
import { ajaxErrorMessage } from "../../../shared/errors";
import { browserApi } from "../../lib/api";
import { FormAlert } from "../form/FormAlert";
import { SubmitButton, TextField, useAutoFocus } from "../form/fields";
import { useMutation } from "../../lib/mutation";
import { type Problem, describeProblem } from "../../lib/problem";
import { z } from "zod";

const GENDERS = [
  { value: "", label: "不透露" },
  { value: "male", label: "男" },
  { value: "female", label: "女" },
] as const;

const meAnswerSchema = z.object({ viewer: viewerSchema.nullable() });

/** The image as the raw body (not JSON), so it goes through fetch itself; errors as browserApi's. */
async function uploadAvatar(file: File): Promise<string> {
  const res = await fetch("/api/me/avatar", {
    method: "POST",
    headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json" },
    body: file,
    credentials: "same-origin",
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) throw new AjaxError(res.status, ajaxErrorMessage(res.status), body);
  const parsed = avatarResultSchema.safeParse(body);
  if (!parsed.success) throw new AjaxError(502, ajaxErrorMessage(502), body);
  return parsed.data.avatarUrl;
}

export function CompleteInfoPanel({ onDone }: { onDone: () => void }) {
  const [nickname, setNickname] = useState("");
  const [gender, setGender] = useState<"" | "male" | "female">("");
  const [region, setRegion] = useState("");
  const [avatarUrl, setAvatarUrl] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [avatarProblem, setAvatarProblem] = useState<Problem | null>(null);
  const [skipping, setSkipping] = useState(false);
  const form = useMutation();
  const nicknameRef = useAutoFocus<HTMLInputElement>();
  const fileRef = useRef<HTMLInputElement | null>(null);
  const id = useId();

  // The name the account got at its first login, as a starting point.
  useEffect(() => {
    const controller = new AbortController();
    browserApi("/api/auth/me", { signal: controller.signal, schema: meAnswerSchema })
      .then(({ viewer }) => {
        if (viewer) setNickname((current) => current || viewer.nickname);
      })
      .catch(() => {});
    return () => controller.abort();
  }, []);

  // A local preview while the upload runs, released when replaced or gone.
  useEffect(
    () => () => {
      if (preview?.startsWith("blob:")) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const pickAvatar = async (file: File | undefined) => {
    setAvatarProblem(null);
    if (!file) return;
    if (!isAvatarFile(file)) {
      setAvatarProblem(problemOf("请选择 JPG、PNG 或 WebP 格式的图片"));
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      setAvatarProblem(problemOf("图片不能超过 5 MB"));
      return;
    }
    setPreview(URL.createObjectURL(file));
    setUploading(true);
    try {
      const url = await uploadAvatar(file);
      setAvatarUrl(url);
      setPreview(url);
    } catch (err) {
      setAvatarUrl(null);
      setPreview(null);
      setAvatarProblem(describeProblem(err));
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = "";
    }
  };

  const skip = async () => {
    form.setProblem(null);
    setSkipping(true);
    try {
      await browserApi("/api/auth/info/skip", { method: "POST", body: {}, schema: statusOkSchema });
      onDone();
    } catch (err) {
      form.setProblem(describeProblem(err));
      setSkipping(false);
    }
  };

  const busy = form.busy || skipping || uploading;
  const avatarError = avatarProblem?.message ?? form.errors.avatarUrl;

  return (
    <form
      ref={form.formRef}
      className="login-form"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (uploading) return;
        const values = {
          nickname,
          ...(avatarUrl ? { avatarUrl } : {}),
          ...(gender ? { gender } : {}),
          ...(region ? { region } : {}),
        };
        const saved = await form.submit(completeInfoSchema, values, (body) =>
          browserApi("/api/auth/info", { method: "POST", body, schema: statusOkSchema }),
        );
        if (saved) onDone();
      }}
    >
      <p className="login-lead">欢迎加入！完善资料，让老师和同学认识你。以下各项都可以稍后在个人中心修改。</p>
      <div className="login-avatar">
        <div className="login-avatar__picture" aria-hidden="true">
          {preview ? (
            <img src={preview} alt="" width={72} height={72} />
          ) : (
            <span>{[...nickname.trim()][0] ?? "墨"}</span>
          )}
        </div>
        <div className="login-avatar__body">
          <input
            ref={fileRef}
            id={`${id}-avatar`}
            type="file"
            className="login-avatar__input"
            accept={AVATAR_TYPES.join(",")}
            disabled={uploading}
            aria-describedby={`${id}-avatar-hint${avatarError ? ` ${id}-avatar-error` : ""}`}
            onChange={(e) => void pickAvatar(e.target.files?.[0])}
          />
          <label htmlFor={`${id}-avatar`} className="button button--small login-avatar__button">
            {uploading ? "上传中…" : avatarUrl ? "更换头像" : "上传头像"}
          </label>
          <p id={`${id}-avatar-hint`} className="login-field__hint">
            选填。JPG、PNG 或 WebP，不超过 5 MB
          </p>
          {avatarError ? (
            <p id={`${id}-avatar-error`} className="form-field__error" role="alert">
              {avatarError}
            </p>
          ) : null}
        </div>
      </div>
      <TextField
        label="昵称"
        autoComplete="nickname"
        maxLength={20}
        {...form.bind("nickname", nickname, setNickname)}
        inputRef={nicknameRef}
      />
      <fieldset className="form-field login-field login-gender">
        <legend className="form-field__label">
          性别<span className="form-field__optional">选填</span>
        </legend>
        <div className="login-choice">
          {GENDERS.map((g) => (
            <label key={g.value} className={`login-choice__option${gender === g.value ? " is-checked" : ""}`}>
              <input
                type="radio"
                name="gender"
                value={g.value}
                checked={gender === g.value}
                onChange={() => setGender(g.value)}
              />
              {g.label}
            </label>
          ))}
        </div>
        {form.errors.gender ? <p className="form-field__error">{form.errors.gender}</p> : null}
      </fieldset>
      <div className="form-field login-field">
        <label htmlFor={`${id}-region`} className="form-field__label">
          地区<span className="form-field__optional">选填</span>
        </label>
        <select
          id={`${id}-region`}
          name="region"
          className="form-field__control"
          value={region}
          onChange={(e) => setRegion(e.target.value)}
          aria-invalid={form.errors.region ? true : undefined}
        >
          <option value="">请选择</option>
          {REGIONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {form.errors.region ? <p className="form-field__error">{form.errors.region}</p> : null}
      </div>
      <FormAlert problem={form.problem} />
      <div className="login-form__actions">
        <SubmitButton busy={form.busy} busyText="保存中…" disabled={skipping || uploading}>
          保存
        </SubmitButton>
        <button type="button" className="button login-skip" onClick={skip} disabled={busy}>
          {skipping ? "请稍候…" : "跳过"}
        </button>
      </div>
    </form>
  );
}

function problemOf(message: string): Problem {
  return { message, fields: {}, retryAfter: null, code: null, statusCode: null };
}
