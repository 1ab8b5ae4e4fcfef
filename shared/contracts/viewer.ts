import { z } from "zod";

/** The signed-in learner as every page sees it (the header, guards). Null when anonymous. */
export const viewerSchema = z.object({
  id: z.number().int().positive(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  unreadNotices: z.number().int().nonnegative(),
  /** Signed in with a one-time password: the security page comes first (set a new password). */
  passwordChangeRequired: z.boolean().optional(),
});
export type Viewer = z.infer<typeof viewerSchema>;
