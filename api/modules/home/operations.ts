/** The home page's operation for the OpenAPI document (api/openapi.ts lists it). */
import { homeSchema } from "../../../shared/contracts/home";
import type { ApiOperation } from "../../openapi";

export const homeOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/home",
    summary: "首页（公开，缓存 60 秒）：轮播、分类与课程数、热门与新课、正在直播与即将开始、新书、文房、老师",
    tag: "home",
    auth: false,
    response: homeSchema,
  },
];
