import { z } from "zod";

const ROLES = ["learner", "teacher", "operator"] as const;
const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** The signed-in learner as every page sees it (the header, guards). Null when anonymous. */
export const viewerSchema = z.object({
  id: z.number().int().positive(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  unreadNotices: z.number().int().nonnegative(),
  /** Teachers and operators also open the teaching area (/teach). */
  role: roleSchema,
  /** Signed in with a one-time password: the security page comes first (set a new password). */
  passwordChangeRequired: z.boolean().optional(),
  /** An operator of the `pro` site without two-factor login: the security page comes first (turn it on). */
  twoFactorRequired: z.boolean().optional(),
});
export type Viewer = z.infer<typeof viewerSchema>;

/** Whether the viewer may open `teacher` pages (an operator has every teacher permission). */
export function mayTeach(viewer: Viewer | null): boolean {
  return viewer?.role === "teacher" || viewer?.role === "operator";
}

/** Whether the viewer may open `operator` pages (the operators' console, /admin). */
export function mayOperate(viewer: Viewer | null): boolean {
  return viewer?.role === "operator";
}
