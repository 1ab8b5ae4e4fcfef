/** The home page in one call: banners, featured and new courses, live, books, stationery, teachers. */
import { homeSchema, type Home } from "../../../shared/contracts/home";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { publicJson } from "../../http";
import { homePage } from "./home";

export function homeEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/home",
      summary: "首页（公开，缓存 60 秒）：轮播、分类与课程数、热门与新课、正在直播与即将开始、新书、文房、老师",
      tag: "home",
      auth: false,
      output: homeSchema,
      handler: async (_req, res) => {
        const home: Home = await homePage(ctx);
        publicJson(res, home);
      },
    }),
  ];
}
