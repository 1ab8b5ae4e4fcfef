import type { RouteDef } from "../route-def";

/*
 * Fixtures for automated tests (layout `test`): 404 unless the server runs with
 * TEST_FIXTURES=1, which production refuses (see server/config.ts).
 */
export const fixtureRoute: RouteDef = {
  id: "fixture",
  path: "__test",
  page: "fixture/FixtureLayout",
  title: "测试页",
  layout: "test",
  middleware: ["testOnly"],
  children: [
    { id: "fixture.fast", path: "fast", page: "fixture/Fast", title: "快速页", middleware: ["testOnly"] },
    { id: "fixture.slow", path: "slow", page: "fixture/Slow", title: "慢速页", middleware: ["testOnly"] },
    { id: "fixture.long", path: "long", page: "fixture/Long", title: "长页", middleware: ["testOnly"] },
    { id: "fixture.throw", path: "throw", page: "fixture/Throw", title: "出错页", middleware: ["testOnly"] },
    {
      id: "fixture.external",
      path: "external",
      page: "fixture/External",
      title: "外部跳转",
      middleware: ["testOnly"],
    },
    {
      id: "fixture.stream",
      path: "stream",
      page: "fixture/Stream",
      title: "流式页",
      middleware: ["testOnly"],
    },
    {
      id: "fixture.throughput",
      path: "throughput",
      page: "fixture/Throughput",
      title: "吞吐页",
      middleware: ["testOnly"],
    },
    {
      id: "fixture.error-page",
      path: "error-page",
      page: "fixture/BrokenErrorPage",
      title: "错误页出错",
      middleware: ["testOnly"],
    },
  ],
};
