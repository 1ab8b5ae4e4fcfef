/**
 * 个人资料: the avatar (checked, previewed, uploaded as the raw image) and the four profile
 * fields, checked in the browser with the API's own schemas before they are sent.
 */
import { type ChangeEvent, useEffect, useId, useRef, useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { AjaxError } from "../../../shared/ajax";
import {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  INTRO_MAX,
  type Me,
  avatarResultSchema,
  isAvatarFile,
  genderLabels,
  profilePatchSchema,
} from "../../../shared/contracts/me";
import { ajaxErrorMessage } from "../../../shared/errors";
import { REGIONS } from "../../../shared/regions";
import { FormAlert, SubmitButton, TextField } from "../../components/form/fields";
import { type Problem, describeProblem } from "../../lib/problem";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { AccountSection, Avatar } from "./account-parts";
import { localProblem, useMutation } from "../../lib/mutation";

export async function loader({ env, signal }: PageLoaderArgs) {
  const me = await env.api("/api/me", {
    signal,
    schema: import("../../../shared/contracts/me").then((m) => m.meSchema),
  });
  return { me, meta: { title: "个人资料" } };
}

const AVATAR_MAX_MB = AVATAR_MAX_BYTES / 1024 / 1024;

/** The picture a learner picked, before it is sent: type and size as the API checks them. */
function avatarFileProblem(file: File): string | null {
  if (!isAvatarFile(file)) return "头像只支持 JPEG、PNG 或 WebP 格式的图片";
  if (file.size > AVATAR_MAX_BYTES) return `图片不能超过 ${AVATAR_MAX_MB} MB`;
  if (file.size === 0) return "这张图片是空的，请换一张";
  return null;
}

/**
 * Sends the image as the request body. The site's JSON client cannot carry bytes, so this one
 * call uses fetch directly; failures become the same AjaxError the client throws.
 */
async function uploadAvatar(file: File): Promise<string> {
  const res = await fetch("/api/me/avatar", {
    method: "POST",
    headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json" },
    body: file,
    credentials: "same-origin",
  });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new AjaxError(res.status, ajaxErrorMessage(res.status), body);
  return avatarResultSchema.parse(body).avatarUrl;
}

function AvatarUploader({ me, onUploaded }: { me: Me; onUploaded: () => void }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  // The preview is a blob URL: released when replaced or when the page goes.
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    setDone(false);
    setProblem(null);
    if (!picked) return;
    const wrong = avatarFileProblem(picked);
    if (wrong) {
      setFile(null);
      setPreview(null);
      setProblem(localProblem(wrong));
      event.target.value = "";
      return;
    }
    setFile(picked);
    setPreview(URL.createObjectURL(picked));
  };

  const upload = async () => {
    if (!file || busy) return;
    setBusy(true);
    setProblem(null);
    try {
      await uploadAvatar(file);
      setFile(null);
      setPreview(null);
      setDone(true);
      if (inputRef.current) inputRef.current.value = "";
      onUploaded();
    } catch (err) {
      setProblem(describeProblem(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AccountSection
      title="头像"
      lead={`支持 JPEG、PNG、WebP，不超过 ${AVATAR_MAX_MB} MB。上传后会裁成正方形，并去掉照片里的拍摄地点等信息。`}
    >
      <div className="avatar-uploader">
        <div className="avatar-uploader__current">
          {preview ? (
            <img
              className="account-avatar account-avatar--large"
              src={preview}
              alt="新头像预览"
              width={120}
              height={120}
            />
          ) : (
            <Avatar url={me.profile.avatarUrl} nickname={me.profile.nickname} />
          )}
          <span className="avatar-uploader__caption">{preview ? "预览" : "当前头像"}</span>
        </div>
        <div className="avatar-uploader__controls">
          <label className="button button--small" htmlFor={inputId}>
            选择图片
          </label>
          <input
            ref={inputRef}
            id={inputId}
            className="visually-hidden"
            type="file"
            accept={AVATAR_TYPES.join(",")}
            onChange={pick}
          />
          <button
            type="button"
            className="button button--primary button--small"
            disabled={!file || busy}
            aria-busy={busy}
            onClick={() => void upload()}
          >
            {busy ? "上传中…" : "上传头像"}
          </button>
          {file ? <p className="avatar-uploader__file">{file.name}</p> : null}
          {done ? (
            <p className="form-success" role="status">
              头像已更新。
            </p>
          ) : null}
          <FormAlert problem={problem} />
        </div>
      </div>
    </AccountSection>
  );
}

interface ProfileValues {
  nickname: string;
  gender: "" | "male" | "female";
  region: string;
  intro: string;
}

function ProfileForm({ me, onSaved }: { me: Me; onSaved: () => void }) {
  const p = me.profile;
  const [values, setValues] = useState<ProfileValues>({
    nickname: p.nickname,
    gender: p.gender ?? "",
    region: p.region ?? "",
    intro: p.intro ?? "",
  });
  const [saved, setSaved] = useState(false);
  const form = useMutation();
  const introId = useId();
  const regionId = useId();
  const set = <K extends keyof ProfileValues>(key: K, value: ProfileValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setSaved(false);
  };
  const introLength = [...values.intro].length;

  return (
    <AccountSection title="基本资料" lead="老师批改作业、同学在直播间里看到的，就是这些信息。">
      <form
        ref={form.formRef}
        className="form account-form"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const body = {
            nickname: values.nickname,
            gender: values.gender || null,
            region: values.region,
            intro: values.intro,
          };
          const result = await form.submit(profilePatchSchema, body, (input) =>
            browserApi("/api/me/profile", {
              method: "PATCH",
              body: input,
              schema: import("../../../shared/contracts/me").then((m) => m.meSchema),
            }),
          );
          if (result) {
            setSaved(true);
            onSaved();
          }
        }}
      >
        <TextField
          label="昵称"
          name="nickname"
          value={values.nickname}
          onValue={(v) => set("nickname", v)}
          error={form.errors.nickname}
          maxLength={40}
          autoComplete="nickname"
          hint="最多 20 个字"
        />
        <fieldset className="form-field account-choice">
          <legend className="form-field__label">
            性别<span className="form-field__optional">选填</span>
          </legend>
          <div className="account-choice__options">
            {(
              [
                ["", "不填"],
                ["male", genderLabels.male],
                ["female", genderLabels.female],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="account-choice__option">
                <input
                  type="radio"
                  name="gender"
                  value={value}
                  checked={values.gender === value}
                  onChange={() => set("gender", value)}
                />
                {label}
              </label>
            ))}
          </div>
          {form.errors.gender ? <p className="form-field__error">{form.errors.gender}</p> : null}
        </fieldset>
        <div className="form-field">
          <label className="form-field__label" htmlFor={regionId}>
            地区<span className="form-field__optional">选填</span>
          </label>
          {/* The same province list as 完善资料; a region written freely before stays as it was. */}
          <select
            id={regionId}
            name="region"
            className="form-field__control"
            value={values.region}
            onChange={(e) => set("region", e.target.value)}
            aria-invalid={form.errors.region ? true : undefined}
          >
            <option value="">请选择</option>
            {values.region && !(REGIONS as readonly string[]).includes(values.region) ? (
              <option value={values.region}>{values.region}</option>
            ) : null}
            {REGIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          {form.errors.region ? <p className="form-field__error">{form.errors.region}</p> : null}
        </div>
        <div className="form-field">
          <label className="form-field__label" htmlFor={introId}>
            个人简介<span className="form-field__optional">选填</span>
          </label>
          <textarea
            id={introId}
            name="intro"
            className="form-field__control account-form__intro"
            rows={5}
            value={values.intro}
            onChange={(e) => set("intro", e.target.value)}
            aria-invalid={form.errors.intro ? true : undefined}
            aria-describedby={`${introId}-counter${form.errors.intro ? ` ${introId}-error` : ""}`}
            placeholder="在练什么字体、临哪本帖，想对老师说的话……"
          />
          <div className="form-field__meta">
            <span
              id={`${introId}-counter`}
              className={`form-field__counter${introLength > INTRO_MAX ? " form-field__counter--over" : ""}`}
            >
              {introLength} / {INTRO_MAX}
            </span>
          </div>
          {form.errors.intro ? (
            <p className="form-field__error" id={`${introId}-error`}>
              {form.errors.intro}
            </p>
          ) : null}
        </div>
        <FormAlert problem={form.problem} />
        {saved ? (
          <p className="form-success" role="status">
            资料已保存。
          </p>
        ) : null}
        <div className="form__actions">
          <SubmitButton busy={form.busy} busyText="保存中…">
            保存资料
          </SubmitButton>
        </div>
      </form>
    </AccountSection>
  );
}

export default function InformationPage() {
  const { me } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const refresh = () => void revalidator.revalidate();
  return (
    <Page
      className="account-page"
      lead="昵称、头像和简介会显示在作业、直播间和作业墙上；手机号和邮箱只有你自己能看到。"
    >
      <AvatarUploader me={me} onUploaded={refresh} />
      <ProfileForm me={me} onSaved={refresh} />
    </Page>
  );
}
