/** Lifecycle constants of spec §9, in one place. */
export const SITE_NAME_DEFAULT = "墨池课堂";
export const SITE_DESCRIPTION =
  "墨池课堂：毛笔、硬笔书法与写作课程，名师录播与直播，作业批改，文房书籍，一起过有笔墨的文人生活。";

export const PROGRESS = {
  throttleMs: 200,
  durationMs: 5000,
  hideDelayMs: 500,
  tickMs: 100,
  increaseLoader: 45,
  increaseLoaderAndFetch: 30,
} as const;

export const FETCH_MIN_DURATION_MS = 200;
export const CHUNK_RELOAD_THROTTLE_MS = 60_000;
export const CHUNK_RELOAD_STORAGE_KEY = "nuxt-reload";

export const LAZY_IMAGE = { preLoad: 1.3, throttleMs: 200, attempts: 3, cacheSize: 200 } as const;
export const MODAL_Z_BASE = 1000;
export const WATERFALL = { columns: 2, gutter: 10, distance: 300, baseWidth: 375 } as const;
export const INFINITE_LIST = {
  distance: 100,
  throttleMs: 50,
  /** In Chinese like the rest of the site: the spec does not quote these texts (DESIGN §1). */
  texts: {
    noResults: "暂无内容",
    noMore: "没有更多了",
    error: "加载失败了，请稍后再试",
    retry: "重试",
  },
} as const;
