/** Course catalogue: list with filters, detail with outline, free enrolment. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createCoursesRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
