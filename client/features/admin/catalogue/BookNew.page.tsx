/**
 * 新建图书 (/admin/books/new): every field the book's public page shows, its cover, the stock it
 * starts with (kept as the change 初始库存) and whether it goes on sale at once. Checked here with
 * the API's own contract first; the API's refusals show beside their fields.
 */
import { adminBookDetailSchema, bookCreateSchema } from "../../../../shared/contracts/admin-catalogue";
import { centsOf } from "../../../components/staff/staff-kit";
import { GoodsCreateForm, type GoodsKind, GoodsNewPage } from "./goods-editor";

export function loader() {
  return { meta: { title: "新建图书", noindex: true } };
}

/** A whole number typed by the operator, or `fallback` when left empty (NaN stays NaN for the check). */
const wholeOr = <T,>(text: string, fallback: T) => (text.trim() === "" ? fallback : Number(text.trim()));

const BOOK: GoodsKind = {
  key: "book",
  title: "新建图书",
  list: { to: "/admin/books", label: "← 图书列表" },
  label: "图书信息",
  submitLabel: "创建图书",
  slots: [
    { name: "title", label: "书名", required: true, maxLength: 80 },
    { name: "author", label: "作者", required: true, maxLength: 60 },
    { name: "publisher", label: "出版社", required: true, maxLength: 60 },
    { name: "isbn", label: "ISBN", hint: "10 或 13 位，不带横线", required: true, maxLength: 13 },
    { name: "tab", label: "分类", hint: "书籍页的分类标签，如 字帖、碑帖", required: true, maxLength: 20 },
    { name: "priceCents", label: "售价（元）", type: "money", required: true },
    { name: "originalPriceCents", label: "划线价（元）", type: "money", hint: "不低于售价；不填则与售价相同" },
    { name: "pages", label: "页数", type: "numeric" },
    { name: "coverChar", label: "封面字", hint: "没有封面图片时，封面上写的一个字", required: true, maxLength: 2 },
    {
      name: "stock",
      label: "初始库存（本）",
      type: "numeric",
      hint: "记入库存变动记录，原因为“初始库存”",
      initial: "0",
    },
    "cover",
    "onSale",
    { name: "summary", label: "简介", type: "area", rows: 3, maxLength: 1000 },
  ],
  coverHint: "JPEG、PNG 或 WebP，不超过 5 MB；裁成 3:4",
  endpoint: "/api/admin/books",
  body: (typed) => ({
    title: typed("title"),
    author: typed("author"),
    publisher: typed("publisher"),
    isbn: typed("isbn").trim().toUpperCase(),
    tab: typed("tab"),
    priceCents: centsOf(typed("priceCents")),
    originalPriceCents: centsOf(
      typed("originalPriceCents").trim() === "" ? typed("priceCents") : typed("originalPriceCents"),
    ),
    coverChar: typed("coverChar"),
    summary: typed("summary"),
    pages: wholeOr(typed("pages"), null),
    stock: wholeOr(typed("stock"), 0),
  }),
  check: bookCreateSchema,
  created: adminBookDetailSchema,
};

export default function BookNewPage() {
  return (
    <GoodsNewPage kind={BOOK}>
      <GoodsCreateForm kind={BOOK} />
    </GoodsNewPage>
  );
}
