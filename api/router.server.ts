/**
 * The API service: JSON only, mounted in-process at /api by default or run on its own
 * (API_ORIGIN). Business modules mount their routers here.
 */
import express, { type ErrorRequestHandler, type Router } from "express";
import { createPracticeRouter } from "./modules/practice/router.server";

export interface ApiError {
  error: { code: string; message: string };
}

export function apiError(code: string, message: string): ApiError {
  return { error: { code, message } };
}

export function createApiRouter(): Router {
  const api = express.Router();
  // Personal by default; public catalogue endpoints say otherwise themselves.
  api.use((_req, res, next) => {
    res.setHeader("Cache-Control", "private, no-store");
    next();
  });
  api.use("/practice", createPracticeRouter());
  api.get("/health", (_req, res) => {
    res.json({ ok: true });
  });
  api.use((_req, res) => {
    res.status(404).json(apiError("not_found", "接口不存在"));
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const status = typeof err?.status === "number" && err.status >= 400 && err.status < 600 ? err.status : 500;
    res
      .status(status)
      .json(
        apiError(
          status === 500 ? "internal" : "bad_request",
          status === 500 ? "服务器开小差了，请稍后再试" : "请求无效",
        ),
      );
  };
  api.use(onError);
  return api;
}
