/** Course categories of DESIGN §4, keyed by the `category` query of /product/list. */
export const courseCategories = [
  { key: "kaishu", name: "楷书" },
  { key: "xingshu", name: "行书" },
  { key: "lishu", name: "隶书" },
  { key: "zhuanshu", name: "篆书" },
  { key: "caoshu", name: "草书" },
  { key: "yingbi", name: "硬笔" },
  { key: "xiezuo", name: "写作" },
  { key: "guoxue", name: "国学" },
] as const;
export type CourseCategoryKey = (typeof courseCategories)[number]["key"];

export function courseCategoryName(key: string): string | undefined {
  return courseCategories.find((c) => c.key === key)?.name;
}
