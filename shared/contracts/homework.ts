/**
 * Homework (/api/homework, /api/teach/homework): a lesson's task, the photos a learner hands in,
 * the teacher's review drawn over them, and the public wall of excellent work.
 *
 * A learner has one submission per task; each hand-in is an attempt (at most
 * HOMEWORK_MAX_ATTEMPTS). An attempt is 待批改 until a teacher reviews it (已批改, with a level,
 * a comment and a drawing) or returns it (退回重写, with a reason), which opens the next attempt.
 * Photos are uploaded one by one first (each with its own progress) and then handed in together.
 * Drawings are vector data in coordinates relative to the photo (0–1 on both axes, x across
 * the width and y down the height), drawn as SVG over the photo, never burnt into it.
 */
import { z } from "zod";

export const HOMEWORK_MAX_ATTEMPTS = 3;
export const HOMEWORK_MAX_PHOTOS = 9;
export const HOMEWORK_NOTE_MAX = 500;
export const HOMEWORK_COMMENT_MAX = 1000;
export const HOMEWORK_REASON_MAX = 300;
/** Largest photo accepted by the server (the browser compresses well below it). */
export const HOMEWORK_PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** Pixel-flood guard: larger images are refused before they are decoded. */
export const HOMEWORK_PHOTO_MAX_PIXELS = 40_000_000;
/** The long side the browser scales a photo to before uploading it. */
export const HOMEWORK_UPLOAD_LONG_SIDE = 2048;
export const HOMEWORK_PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp", "image/heic", "image/heif"] as const;
/** Hours an uploaded photo waits to be handed in before the upload job deletes it. */
export const HOMEWORK_UNSUBMITTED_PHOTO_HOURS = 24;
/** Minutes a teacher's claim on an attempt lasts without activity. */
export const HOMEWORK_CLAIM_MINUTES = 30;

export const HOMEWORK_UNSUPPORTED_TYPE = "只支持 JPG、PNG、WebP 或 HEIC（iPhone 照片）格式的照片，请换一张";
/** A HEIC/HEIF photo the server cannot decode (cut short, or not a photo at all). */
export const HOMEWORK_BROKEN_HEIC = "这张 HEIC 照片已损坏或无法读取，请在相册里重新选择，或重新拍一张";

export const SCRIPTS = ["kai", "xing", "li", "zhuan", "cao", "yingbi"] as const;
export const scriptSchema = z.enum(SCRIPTS);
export type Script = z.infer<typeof scriptSchema>;
export const SCRIPT_LABELS: Record<Script, string> = {
  kai: "楷书",
  xing: "行书",
  li: "隶书",
  zhuan: "篆书",
  cao: "草书",
  yingbi: "硬笔",
};

export const ATTEMPT_STATES = ["waiting", "reviewed", "returned"] as const;
export const attemptStateSchema = z.enum(ATTEMPT_STATES);
export type AttemptState = z.infer<typeof attemptStateSchema>;
export const ATTEMPT_STATE_LABELS: Record<AttemptState, string> = {
  waiting: "待批改",
  reviewed: "已批改",
  returned: "退回重写",
};

export const LEVELS = ["excellent", "good", "fair", "weak"] as const;
export const levelSchema = z.enum(LEVELS);
export type Level = z.infer<typeof levelSchema>;
export const LEVEL_LABELS: Record<Level, string> = { excellent: "优", good: "良", fair: "中", weak: "需加强" };

export const GRID_KINDS = ["tian", "mi", "jiugong"] as const;
export const gridKindSchema = z.enum(GRID_KINDS);
export type GridKind = z.infer<typeof gridKindSchema>;
export const GRID_LABELS: Record<GridKind, string> = { tian: "田字格", mi: "米字格", jiugong: "九宫格" };

const unit = z.number().min(-0.5).max(1.5);

/** A pen stroke, a circle or a tick; width is a fraction of the photo's width. */
export const markSchema = z.strictObject({
  kind: z.enum(["pen", "circle", "tick"]),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  width: z.number().min(0.0005).max(0.05),
  /** [x, y, pressure] triples; a circle is its bounding box's two corners, a tick its three points. */
  points: z
    .array(z.tuple([unit, unit, z.number().min(0).max(1)]))
    .min(1)
    .max(4000),
});
export type Mark = z.infer<typeof markSchema>;

/** A grid the teacher placed over one character: its centre and side as fractions of the width. */
export const gridSchema = z.strictObject({
  kind: gridKindSchema,
  x: unit,
  y: unit,
  size: z.number().min(0.02).max(1.5),
  /** The model character shown beside the learner's, or "" for none. */
  character: z.string().max(2),
});
export type Grid = z.infer<typeof gridSchema>;

/** The teacher's drawing on one photo. */
export const drawingSchema = z.strictObject({
  photo: z
    .number()
    .int()
    .min(0)
    .max(HOMEWORK_MAX_PHOTOS - 1),
  marks: z.array(markSchema).max(500),
  grids: z.array(gridSchema).max(30),
});
export type Drawing = z.infer<typeof drawingSchema>;

/** A lesson's task as learners see it. */
export const homeworkTaskSchema = z.object({
  id: z.number(),
  courseId: z.number(),
  courseTitle: z.string(),
  lessonId: z.number(),
  lessonTitle: z.string(),
  title: z.string(),
  /** What to write, in the teacher's words. */
  instructions: z.string(),
  /** The model characters, in order (e.g. "永和九年"). */
  characters: z.string(),
  script: scriptSchema,
  maxPhotos: z.number(),
  maxAttempts: z.number(),
});
export type HomeworkTask = z.infer<typeof homeworkTaskSchema>;

export const photoSchema = z.object({
  /** Opaque and unguessable; the URLs below check who asks. */
  id: z.string(),
  width: z.number(),
  height: z.number(),
  url: z.string(),
  thumbUrl: z.string(),
});
export type HomeworkPhoto = z.infer<typeof photoSchema>;

export const reviewSchema = z.object({
  level: levelSchema.nullable(),
  levelLabel: z.string().nullable(),
  comment: z.string(),
  /** Set when the attempt was returned. */
  returnReason: z.string().nullable(),
  drawings: z.array(drawingSchema),
  teacher: z.string(),
  reviewedAt: z.string(),
});
export type HomeworkReview = z.infer<typeof reviewSchema>;

export const attemptSchema = z.object({
  id: z.string(),
  number: z.number(),
  state: attemptStateSchema,
  stateLabel: z.string(),
  photos: z.array(photoSchema),
  note: z.string(),
  submittedAt: z.string(),
  review: reviewSchema.nullable(),
});
export type HomeworkAttempt = z.infer<typeof attemptSchema>;

/** One learner's work on one task, every attempt kept (oldest first). */
export const submissionSchema = z.object({
  id: z.string(),
  task: homeworkTaskSchema,
  learner: z.string(),
  state: attemptStateSchema,
  stateLabel: z.string(),
  showOnWall: z.boolean(),
  /** Set when the work is on the wall: the share page is /homework/share?id={shareId}. */
  shareId: z.string().nullable(),
  attempts: z.array(attemptSchema),
  /** Whether the learner may hand in again now, and why not in plain words. */
  resubmit: z.object({ allowed: z.boolean(), reason: z.string() }),
});
export type HomeworkSubmission = z.infer<typeof submissionSchema>;

/** GET /api/homework/lessons/{lessonId}: the task of a lesson and the viewer's work on it. */
export const lessonHomeworkSchema = z.object({
  task: homeworkTaskSchema.nullable(),
  /** Null for anonymous or not-enrolled viewers, and before the first hand-in. */
  submission: submissionSchema.nullable(),
  /** Whether the viewer may hand in now, and why not in plain words. */
  canSubmit: z.object({ allowed: z.boolean(), reason: z.string() }),
});
export type LessonHomework = z.infer<typeof lessonHomeworkSchema>;

/** POST /api/homework/tasks/{taskId}/photos (raw image body, Idempotency-Key): an upload to hand in. */
export const uploadedPhotoSchema = photoSchema;

/**
 * GET /api/homework/tasks/{taskId}/draft: the learner's photos uploaded for the next attempt and
 * not yet handed in (kept on the server for HOMEWORK_UNSUBMITTED_PHOTO_HOURS), oldest first, so a
 * reload or a dropped connection loses none of them. DELETE …/draft/{photoId} removes one.
 */
export const draftSchema = z.object({ photos: z.array(photoSchema) });
export type HomeworkDraft = z.infer<typeof draftSchema>;
export const draftRemovedSchema = z.object({ removed: z.literal(true) });

/** POST /api/homework/tasks/{taskId}/submissions (Idempotency-Key). */
export const submitSchema = z.strictObject({
  photoIds: z
    .array(z.string().min(1).max(64))
    .min(1, "请至少上传一张照片")
    .max(HOMEWORK_MAX_PHOTOS, `最多 ${HOMEWORK_MAX_PHOTOS} 张照片`),
  note: z.string().max(HOMEWORK_NOTE_MAX, `留言不能超过 ${HOMEWORK_NOTE_MAX} 字`).default(""),
  showOnWall: z.boolean().default(false),
});
export type SubmitInput = z.input<typeof submitSchema>;

/** PATCH /api/homework/submissions/{id}: the learner's wall choice. */
export const wallChoiceSchema = z.strictObject({ showOnWall: z.boolean() });

/** GET /api/homework/mine: the learner's work, newest first. */
export const myHomeworkQuerySchema = z.object({
  state: attemptStateSchema.optional(),
  courseId: z.coerce.number().int().positive().optional(),
  cursor: z.string().max(64).optional(),
});
export const homeworkListItemSchema = z.object({
  id: z.string(),
  courseId: z.number(),
  courseTitle: z.string(),
  lessonTitle: z.string(),
  taskTitle: z.string(),
  state: attemptStateSchema,
  stateLabel: z.string(),
  level: levelSchema.nullable(),
  levelLabel: z.string().nullable(),
  attempts: z.number(),
  thumbUrl: z.string().nullable(),
  updatedAt: z.string(),
});
export type HomeworkListItem = z.infer<typeof homeworkListItemSchema>;
export const myHomeworkSchema = z.object({
  items: z.array(homeworkListItemSchema),
  nextCursor: z.string().nullable(),
  counts: z.record(attemptStateSchema, z.number()),
  courses: z.array(z.object({ id: z.number(), title: z.string() })),
});
export type MyHomework = z.infer<typeof myHomeworkSchema>;

// ---- Teachers ----

export const queueQuerySchema = z.object({
  courseId: z.coerce.number().int().positive().optional(),
  lessonId: z.coerce.number().int().positive().optional(),
  /** waiting: not yet reviewed (claimed or not); mine: claimed by me; done: reviewed or returned by me today. */
  view: z.enum(["waiting", "mine", "done"]).default("waiting"),
  cursor: z.string().max(64).optional(),
});
export const queueItemSchema = z.object({
  attemptId: z.string(),
  submissionId: z.string(),
  learner: z.string(),
  courseId: z.number(),
  courseTitle: z.string(),
  lessonId: z.number(),
  lessonTitle: z.string(),
  taskTitle: z.string(),
  number: z.number(),
  photos: z.number(),
  thumbUrl: z.string(),
  submittedAt: z.string(),
  waitingMinutes: z.number(),
  /** Who holds the claim and until when, if anyone does. */
  claimedBy: z.string().nullable(),
  claimedByMe: z.boolean(),
  claimUntil: z.string().nullable(),
  state: attemptStateSchema,
  /** The teacher an operator gave this attempt to (only they may claim it), if any. */
  assignedTo: z.string().nullable(),
});
export type QueueItem = z.infer<typeof queueItemSchema>;
export const queueSchema = z.object({
  items: z.array(queueItemSchema),
  nextCursor: z.string().nullable(),
  stats: z.object({ waiting: z.number(), doneToday: z.number(), medianWaitMinutes: z.number().nullable() }),
  courses: z.array(z.object({ id: z.number(), title: z.string() })),
  /** The lessons with a task in those courses, in course order (the lesson filter offers the selected course's). */
  lessons: z.array(z.object({ id: z.number(), title: z.string(), courseId: z.number() })).default([]),
  /** Operators see every course's queue and can reassign. */
  operator: z.boolean(),
  /** For operators: the teachers an attempt can be given to, with the courses each teaches. */
  teachers: z.array(z.object({ id: z.number(), nickname: z.string(), courseIds: z.array(z.number()) })).default([]),
});
export type Queue = z.infer<typeof queueSchema>;

/** POST /api/teach/homework/attempts/{id}/claim: the attempt to review, locked for the caller. */
export const claimResultSchema = z.object({
  submission: submissionSchema,
  attemptId: z.string(),
  claimUntil: z.string(),
  /** The next waiting attempt after this one in the caller's queue ("save and next"). */
  nextAttemptId: z.string().nullable(),
});
export type ClaimResult = z.infer<typeof claimResultSchema>;

/** POST /api/teach/homework/attempts/{id}/release: whether the caller held the claim it gave up. */
export const releaseResultSchema = z.object({ released: z.boolean() });

/** POST /api/teach/homework/attempts/{id}/review. */
export const reviewInputSchema = z.strictObject({
  level: levelSchema,
  comment: z.string().trim().min(1, "请写一句评语").max(HOMEWORK_COMMENT_MAX),
  drawings: z.array(drawingSchema).max(HOMEWORK_MAX_PHOTOS).default([]),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

/** POST /api/teach/homework/attempts/{id}/return. */
export const returnInputSchema = z.strictObject({
  reason: z.string().trim().min(1, "请写明退回的原因").max(HOMEWORK_REASON_MAX),
  drawings: z.array(drawingSchema).max(HOMEWORK_MAX_PHOTOS).default([]),
});
export type ReturnInput = z.input<typeof returnInputSchema>;

/** POST /api/teach/homework/attempts/{id}/assign (operators); answers with the queue item. */
export const assignInputSchema = z.strictObject({ teacherId: z.number().int().positive() });

/** GET / PUT /api/teach/homework/phrases: the teacher's saved comments. */
export const phrasesSchema = z.strictObject({
  phrases: z.array(z.string().trim().min(1).max(200)).max(50),
});
export type Phrases = z.infer<typeof phrasesSchema>;

// ---- The wall and share pages ----

export const wallQuerySchema = z.object({
  script: scriptSchema.optional(),
  cursor: z.string().max(64).optional(),
});
export const wallItemSchema = z.object({
  shareId: z.string(),
  learner: z.string(),
  courseTitle: z.string(),
  script: scriptSchema,
  level: levelSchema,
  levelLabel: z.string(),
  commentLine: z.string(),
  thumbUrl: z.string(),
  width: z.number(),
  height: z.number(),
});
export type WallItem = z.infer<typeof wallItemSchema>;
export const wallSchema = z.object({ items: z.array(wallItemSchema), nextCursor: z.string().nullable() });
export type Wall = z.infer<typeof wallSchema>;

/** GET /api/homework/share/{shareId}: a work on the wall (410 once taken off or hidden). */
export const shareSchema = z.object({
  shareId: z.string(),
  learner: z.string(),
  courseId: z.number(),
  courseTitle: z.string(),
  lessonTitle: z.string(),
  script: scriptSchema,
  characters: z.string(),
  photos: z.array(photoSchema),
  review: reviewSchema,
  /** The JPEG share poster (og:image, download). */
  posterUrl: z.string(),
  /** The work's photo on a 600×600 square (the second og:image, WeChat's chat cards). */
  squareUrl: z.string(),
  /** Set when the viewer handed this work in: the submission to PATCH to take it off the wall. */
  ownSubmissionId: z.string().nullable().optional(),
});
export type ShareView = z.infer<typeof shareSchema>;

/** POST /api/homework/share/{shareId}/hide (operators): hide a work from the wall, or show it again. */
export const hideShareSchema = z.strictObject({ hidden: z.boolean().default(true) });
export const hideShareResultSchema = z.object({ shareId: z.string(), hidden: z.boolean() });

/** The share page's 410 message once the work is off the wall. */
export const HOMEWORK_SHARE_GONE = "这份作品已不在作业墙上";
