/**
 * A lesson's form: name, duration, trial flag and notes, and — in its own block below — its video
 * (a sample video or an HLS address of this site, and for a saved lesson a file upload).
 */
import { useState } from "react";
import { type AdminLesson, type EncoderStatus } from "../../../../../shared/contracts/admin-catalogue";
import { parseLessonCardKey, sampleVideoKeys, sampleVideos } from "../../../../../shared/media";
import { InputField, SelectField, TextAreaField } from "../../../../components/staff/staff-fields";
import { Field } from "../../../../components/staff/staff-kit";
import { FormAlert } from "../../../../components/form/FormAlert";
import { useMutation } from "../../../../lib/mutation";
import { browserApi } from "../../../../lib/api";
import { VideoUpload } from "./VideoUpload";

type Source = "key" | "url";

const SOURCE_OPTIONS = [
  { value: "key", label: "示例视频" },
  { value: "url", label: "本站视频地址（HLS）" },
] as const satisfies ReadonlyArray<{ value: Source; label: string }>;
const SAMPLE_OPTIONS: ReadonlyArray<{ value: string; label: string }> = sampleVideoKeys.map((k) => ({
  value: k,
  label: sampleVideos[k].title,
}));

/** The sample choices, with a demo lesson's own clip (title card + sample) for that lesson only. */
function videoOptions(lesson: AdminLesson | null): ReadonlyArray<{ value: string; label: string }> {
  const own = lesson && !lesson.videoUrl ? parseLessonCardKey(lesson.videoKey) : null;
  if (!own || !lesson) return SAMPLE_OPTIONS;
  return [{ value: lesson.videoKey, label: `本课片头 + ${sampleVideos[own.sample].title}` }, ...SAMPLE_OPTIONS];
}

export function LessonForm({
  lesson,
  chapterId,
  encoder,
  onDone,
}: {
  lesson: AdminLesson | null;
  chapterId: number;
  encoder: EncoderStatus;
  onDone: () => void;
}) {
  const [title, setTitle] = useState(lesson?.title ?? "");
  const [summary, setSummary] = useState(lesson?.summary ?? "");
  const [source, setSource] = useState<Source>(lesson?.videoUrl ? "url" : "key");
  const [videoKey, setVideoKey] = useState<string>(
    lesson && !lesson.videoUrl ? lesson.videoKey : (sampleVideoKeys[0] ?? "yong"),
  );
  const [videoUrl, setVideoUrl] = useState(lesson?.videoUrl ?? "");
  const [duration, setDuration] = useState(String(lesson?.durationSeconds ?? 30));
  const [isTrial, setIsTrial] = useState(lesson?.isTrial ?? false);
  const action = useMutation();
  const submit = () => {
    const body = {
      title,
      summary,
      video: source === "key" ? { key: videoKey } : { url: videoUrl },
      durationSeconds: Number(duration),
      isTrial,
    };
    void action
      .run(
        () =>
          lesson
            ? browserApi(`/api/admin/lessons/${lesson.id}`, { method: "PATCH", body })
            : browserApi(`/api/admin/chapters/${chapterId}/lessons`, { method: "POST", body }),
        { done: "课时已保存" },
      )
      .then((saved) => {
        if (saved) onDone();
      });
  };
  return (
    <form
      className="staff-form"
      aria-label={lesson ? `编辑课时 ${lesson.title}` : "新增课时"}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <InputField
        label="课时名称"
        value={title}
        onChange={setTitle}
        error={action.errors.title}
        required
        maxLength={60}
      />
      {/* ---- video: where it comes from ---- */}
      <SelectField label="视频来源" value={source} onChange={setSource} options={SOURCE_OPTIONS} />
      {source === "key" ? (
        <SelectField label="示例视频" value={videoKey} onChange={setVideoKey} options={videoOptions(lesson)} />
      ) : (
        <InputField
          label="视频地址"
          hint="本站路径，如 /media/video/yong/index.m3u8"
          value={videoUrl}
          onChange={setVideoUrl}
          required
        />
      )}
      {/* ---- end of video ---- */}
      <InputField label="时长（秒）" type="number" min={1} value={duration} onChange={setDuration} required />
      <Field label="试看">
        {(id) => (
          <label className="catalogue-check">
            <input id={id} type="checkbox" checked={isTrial} onChange={(e) => setIsTrial(e.target.checked)} /> 免费试看
          </label>
        )}
      </Field>
      <TextAreaField label="课时讲义" value={summary} onChange={setSummary} rows={2} />
      {lesson ? <VideoUpload lesson={lesson} encoder={encoder} onDone={onDone} /> : null}
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={action.busy}>
          {lesson ? "保存课时" : "添加课时"}
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
      </div>
    </form>
  );
}
