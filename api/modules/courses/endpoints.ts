/**
 * Course catalogue (/api/courses): the list with filters and the public detail (both the same
 * for every visitor, so caches keep them a minute), and the personal parts — the learner's
 * state on a course, free enrolment, my courses — private and never stored.
 *
 * The detail is split in two on purpose: the public outline is cacheable by any cache without
 * varying on cookies, and the small personal overlay (`/:id/me`) is fetched only when signed in.
 */
import express, { type Request, type Router } from "express";
import { courseListQuerySchema, enrolRequestSchema } from "../../../shared/contracts/courses";
import { paramRules } from "../../../shared/routes";
import type { ApiContext } from "../../context";
import { handler, parseInput, publicJson } from "../../http";
import { requireAuth } from "../auth/guard";
import { courseDetail, courseNotFound, listCourses } from "./catalogue";
import { courseViewer, enrolFree, myCourses } from "./learner";

/** The course id of the path; anything but a positive int4 is simply an unknown course. */
function courseIdOf(req: Request): number {
  const raw = req.params.id;
  if (typeof raw !== "string" || !paramRules.id.safeParse(raw).success) throw courseNotFound();
  return Number(raw);
}

export function createCoursesRouter(ctx: ApiContext): Router {
  const router = express.Router();

  router.get(
    "/",
    handler(async (req, res) => {
      const query = parseInput(courseListQuerySchema, req.query);
      publicJson(res, await listCourses(ctx, query));
    }),
  );

  router.get(
    "/mine",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await myCourses(ctx, user.id));
    }),
  );

  router.get(
    "/:id",
    handler(async (req, res) => {
      publicJson(res, await courseDetail(ctx, courseIdOf(req)));
    }),
  );

  router.get(
    "/:id/me",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      res.json(await courseViewer(ctx, user.id, courseIdOf(req)));
    }),
  );

  router.post(
    "/:id/enrol",
    handler(async (req, res) => {
      const { user } = requireAuth(req, res);
      parseInput(enrolRequestSchema, req.body);
      res.json(await enrolFree(ctx, user.id, courseIdOf(req)));
    }),
  );

  return router;
}
