import { z } from "zod";

/** The signed-in learner as every page sees it (the header, guards). Null when anonymous. */
export const viewerSchema = z.object({
  id: z.number().int().positive(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  unreadNotices: z.number().int().nonnegative(),
});
export type Viewer = z.infer<typeof viewerSchema>;
