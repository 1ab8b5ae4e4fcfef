/**
 * A lesson's video file in the operator's editor: the encoder's absence said before anything is
 * picked, then the upload with its progress (XMLHttpRequest), then the background transcoding
 * (polled every 2 s) until 已转码 with the new sources, or the reason it failed.
 */
import { useEffect, useRef, useState } from "react";
import { AjaxError } from "../../../../../shared/ajax";
import {
  type AdminLesson,
  type EncoderStatus,
  LESSON_VIDEO_MAX_SECONDS,
  lessonVideoJobSchema,
  VIDEO_JOB_STATE_LABELS,
  type VideoJob,
} from "../../../../../shared/contracts/admin-catalogue";
import { ajaxErrorMessage } from "../../../../../shared/errors";
import { Field } from "../../../../components/staff/staff-kit";
import { browserApi } from "../../../../lib/api";
import { describeProblem } from "../../../../lib/problem";

const POLL_MS = 2000;
/** The containers the server reads (decision 070); the file's bytes decide, whatever its name. */
const ACCEPT =
  "video/mp4,video/quicktime,video/webm,video/x-matroska,video/x-msvideo,video/mpeg,video/mp2t," +
  ".mp4,.m4v,.mov,.webm,.mkv,.avi,.mpg,.mpeg,.ts,.m2ts,.mts";

/** Sends the file as the raw body, telling the share sent (0–1); answers the parsed JSON body. */
function sendVideo(url: string, file: File, onProgress: (share: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", file.type || "application/octet-stream");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new AjaxError(xhr.status, ajaxErrorMessage(xhr.status), body));
    };
    xhr.onerror = () => reject(new Error("network"));
    xhr.send(file);
  });
}

export function VideoUpload({
  lesson,
  encoder,
  onDone,
}: {
  lesson: AdminLesson;
  encoder: EncoderStatus;
  /** The lesson now plays the new video: the editor reloads the course. */
  onDone: () => void;
}) {
  const [sent, setSent] = useState<number | null>(null);
  const [job, setJob] = useState<VideoJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  // The latest job on opening (a transcoding begun earlier is followed), then every 2 s while it runs.
  const open = job === null || job.state === "queued" || job.state === "running";
  useEffect(() => {
    if (!open || sent !== null) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const { job: latest } = await browserApi(`/api/admin/lessons/${lesson.id}/video`, {
          signal: controller.signal,
          schema: lessonVideoJobSchema,
        });
        if (controller.signal.aborted) return;
        setJob(latest);
        if (latest && (latest.state === "queued" || latest.state === "running")) timer = setTimeout(poll, POLL_MS);
        else if (latest?.state === "done" && job && job.state !== "done") onDoneRef.current();
      } catch {
        if (!controller.signal.aborted) timer = setTimeout(poll, POLL_MS);
      }
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // `job` is read only to tell a transcoding that ends while watched; polling restarts on a new one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lesson.id, open, sent, job?.id]);

  const pick = async (file: File) => {
    setError(null);
    setSent(0);
    try {
      const answer = lessonVideoJobSchema.parse(
        await sendVideo(`/api/admin/lessons/${lesson.id}/video`, file, (share) => setSent(share)),
      );
      setJob(answer.job);
    } catch (err) {
      setError(describeProblem(err).message);
    } finally {
      setSent(null);
    }
  };

  const busy = sent !== null || (job !== null && (job.state === "queued" || job.state === "running"));
  return (
    <div className="staff-field staff-field--wide catalogue-video" data-testid="video-upload">
      <Field
        label="上传视频文件"
        hint={
          encoder.available
            ? `MP4、MOV、WebM、MKV、AVI 或 MPEG，最长 ${LESSON_VIDEO_MAX_SECONDS / 3600} 小时；上传后在后台转为 HLS（每段 6 秒）、MP4 和封面`
            : undefined
        }
        wide
      >
        {(id) => (
          <input
            id={id}
            type="file"
            accept={ACCEPT}
            disabled={!encoder.available || busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void pick(file);
            }}
          />
        )}
      </Field>
      {!encoder.available ? (
        <p className="staff-message staff-message--error" role="alert">
          {encoder.message}
        </p>
      ) : null}
      {sent !== null ? (
        <p className="catalogue-video__step">
          <span>正在上传 {Math.round(sent * 100)}%</span>
          <progress max={1} value={sent} aria-label="视频上传进度" />
        </p>
      ) : null}
      {job && sent === null ? (
        <div className="catalogue-video__step" data-state={job.state}>
          <span role="status">
            {VIDEO_JOB_STATE_LABELS[job.state]}
            {job.state === "running" ? ` ${job.progress}%` : ""}
          </span>
          {job.state === "queued" || job.state === "running" ? (
            <progress max={100} value={job.progress} aria-label="视频转码进度" />
          ) : null}
          {job.state === "failed" && job.message ? (
            <span className="staff-message staff-message--error" role="alert">
              {job.message}
            </span>
          ) : null}
          {job.state === "done" && job.sources ? (
            <span className="catalogue-video__sources">
              <a href={job.sources.hls}>HLS</a> · <a href={job.sources.mp4}>MP4</a> ·{" "}
              <a href={job.sources.poster}>封面</a>
            </span>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p className="staff-message staff-message--error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
