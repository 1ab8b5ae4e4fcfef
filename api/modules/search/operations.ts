/** The search endpoint as the OpenAPI description lists it (api/openapi.ts). */
import { searchResultSchema } from "../../../shared/contracts/search";
import type { ApiOperation } from "../../openapi";

export const searchOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/search",
    summary: "搜索课程、书籍和文房（?q= 1–40 字，kind=all|course|book|commodity，page），附各类数量",
    tag: "search",
    auth: false,
    response: searchResultSchema,
  },
];
