/** Books and stationery: lists, details, SKUs and stock. */
import express, { type Router } from "express";
import type { ApiContext } from "../../context.server";

export function createShopRouter(_ctx: ApiContext): Router {
  const router = express.Router();
  return router;
}
