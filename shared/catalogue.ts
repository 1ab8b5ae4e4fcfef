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

/**
 * A book's byline: an author with a role of their own ("编", "编注", "集", "（原著）") keeps it;
 * a rubbing (碑帖) is written by its calligrapher (书); anyone else wrote the book (著).
 */
export function bookByline(author: string, tab: string): string {
  if (/(编|编注|集|注|译|著|撰|书|（原著）|（传）)$/.test(author)) return author;
  return tab === "碑帖" ? `${author} 书` : `${author} 著`;
}

export function courseCategoryName(key: string): string | undefined {
  return courseCategories.find((c) => c.key === key)?.name;
}
