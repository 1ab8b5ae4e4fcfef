/**
 * 内容审核 (/admin/moderation): the feedback inbox (reply → a notice to the learner; mark
 * handled) and the homework wall (hide a work, show it again). Both tables are paged, sorted and
 * filtered by the server; the view, filters and sort live in the URL.
 */
import { createColumnHelper } from "@tanstack/react-table";
import { useState } from "react";
import { useLoaderData, useRevalidator, useSearchParams } from "react-router-dom";
import { Link } from "../../../routing/link";
import {
  FEEDBACK_CATEGORIES,
  type FeedbackRow,
  feedbackPageSchema,
  feedbackRowSchema,
  type WallWork,
  wallWorkPageSchema,
} from "../../../../shared/contracts/feedback";
import { hideShareResultSchema } from "../../../../shared/contracts/homework";
import { formatDateTime } from "../../../../shared/format";
import { Page } from "../../../components/Page";
import { DataTable } from "../../../components/table/DataTable";
import { FilterBar } from "../../../components/table/FilterBar";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { apiQuery, DialogForm, text } from "../../../components/staff/staff-action";
import { useMutation } from "../../../lib/mutation";

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const view = new URL(request.url).searchParams.get("view") === "works" ? "works" : "feedback";
  const meta = { title: "内容审核", noindex: true };
  if (view === "works") {
    const works = await env.api(`/api/admin/moderation/works${apiQuery(request, ["hidden"])}`, {
      signal,
      schema: wallWorkPageSchema,
    });
    return { view, works, feedback: null, meta } as const;
  }
  const feedback = await env.api(`/api/admin/feedback${apiQuery(request, ["state", "category"])}`, {
    signal,
    schema: feedbackPageSchema,
  });
  return { view, feedback, works: null, meta } as const;
}

function FeedbackActions({ row, onReply }: { row: FeedbackRow; onReply: (row: FeedbackRow) => void }) {
  const { revalidate } = useRevalidator();
  const action = useMutation({ after: revalidate });
  return (
    <div className="admin-actions">
      {row.reply === null ? (
        <button type="button" className="button button--small button--primary" onClick={() => onReply(row)}>
          回复
        </button>
      ) : null}
      <button
        type="button"
        className="button button--small"
        disabled={action.busy}
        onClick={() =>
          void action.send(`/api/admin/feedback/${row.id}/handled`, {
            body: { handled: row.state === "open" },
            schema: feedbackRowSchema,
          })
        }
      >
        {row.state === "open" ? "标记已处理" : "重新打开"}
      </button>
      {action.problem ? <span role="alert">{action.problem.message}</span> : null}
    </div>
  );
}

function WorkActions({ row }: { row: WallWork }) {
  const { revalidate } = useRevalidator();
  const action = useMutation({ after: revalidate });
  return (
    <div className="admin-actions">
      <button
        type="button"
        className={`button button--small${row.hidden ? "" : " button--primary"}`}
        disabled={action.busy}
        onClick={() =>
          void action.send(`/api/admin/moderation/works/${row.shareId}/hide`, {
            body: { hidden: !row.hidden },
            schema: hideShareResultSchema,
          })
        }
      >
        {row.hidden ? "恢复显示" : "从作业墙隐藏"}
      </button>
      {action.problem ? <span role="alert">{action.problem.message}</span> : null}
    </div>
  );
}

const fb = createColumnHelper<FeedbackRow>();
const wk = createColumnHelper<WallWork>();

const workColumns = [
  wk.display({
    id: "photo",
    header: "作品",
    cell: (c) => (
      <img
        className="admin-thumb"
        src={c.row.original.thumbUrl}
        alt={`${c.row.original.nickname}的作品`}
        width={64}
        height={64}
      />
    ),
  }),
  wk.accessor("nickname", { header: "学员" }),
  wk.accessor("courseTitle", { header: "课程", meta: { sortKey: "course" } }),
  wk.accessor("comment", { header: "老师评语" }),
  wk.accessor("excellentAt", {
    header: "评为优秀",
    cell: (c) => (c.getValue() ? formatDateTime(c.getValue()!) : "—"),
    meta: { sortKey: "excellentAt" },
  }),
  wk.accessor("hidden", { header: "状态", cell: (c) => (c.getValue() ? "已隐藏" : "展示中") }),
  wk.display({ id: "actions", header: "操作", cell: (c) => <WorkActions row={c.row.original} /> }),
];

export default function ModerationPage() {
  const data = useLoaderData<typeof loader>();
  const [search] = useSearchParams();
  const [replying, setReplying] = useState<FeedbackRow | null>(null);
  const { revalidate } = useRevalidator();
  const reply = useMutation({ after: revalidate });
  const state = search.get("state") ?? "open";

  const feedbackColumns = [
    fb.accessor("createdAt", {
      header: "时间",
      cell: (c) => formatDateTime(c.getValue()),
      meta: { sortKey: "createdAt" },
    }),
    fb.accessor("categoryLabel", { header: "类型", meta: { sortKey: "category" } }),
    fb.accessor("content", { header: "内容", cell: (c) => <p className="admin-cell-text">{c.getValue()}</p> }),
    fb.display({
      id: "who",
      header: "来自",
      cell: (c) =>
        [
          c.row.original.nickname ? `${c.row.original.nickname}（#${c.row.original.userId}）` : "未登录",
          c.row.original.contact,
        ]
          .filter(Boolean)
          .join(" · "),
    }),
    fb.display({
      id: "state",
      header: "处理",
      cell: (c) =>
        c.row.original.reply ? (
          <p className="admin-cell-text">已回复：{c.row.original.reply}</p>
        ) : c.row.original.state === "handled" ? (
          "已处理"
        ) : (
          "待处理"
        ),
    }),
    fb.display({
      id: "actions",
      header: "操作",
      cell: (c) => <FeedbackActions row={c.row.original} onReply={setReplying} />,
    }),
  ];

  return (
    <Page lead="处理学员的意见反馈，管理作业墙上展示的作品。每一次操作都记入审计日志。">
      <nav className="admin-tabs" aria-label="审核内容">
        <Link
          to="?view=feedback"
          className={`admin-tabs__tab${data.view === "feedback" ? " is-active" : ""}`}
          aria-current={data.view === "feedback" ? "page" : undefined}
        >
          意见反馈
        </Link>
        <Link
          to="?view=works"
          className={`admin-tabs__tab${data.view === "works" ? " is-active" : ""}`}
          aria-current={data.view === "works" ? "page" : undefined}
        >
          作业墙
        </Link>
      </nav>
      {data.feedback ? (
        <>
          <FilterBar
            label="筛选意见反馈"
            fixed={{ view: "feedback" }}
            filters={[
              {
                type: "select",
                name: "state",
                label: "处理状态",
                options: [
                  ["open", "待处理"],
                  ["handled", "已处理"],
                  ["all", "全部"],
                ],
                fallback: "open",
              },
              {
                type: "select",
                name: "category",
                label: "类型",
                options: [["", "全部类型"], ...FEEDBACK_CATEGORIES.map((c) => [c.value, c.label] as const)],
              },
              { type: "search", name: "q", label: "关键词", placeholder: "内容、联系方式、昵称" },
            ]}
          />
          <DataTable
            caption="意见反馈"
            columns={feedbackColumns}
            page={data.feedback}
            rowKey={(row) => String(row.id)}
            defaultSort={{ key: "createdAt", dir: "desc" }}
            empty={<p>{state === "open" ? "没有待处理的反馈。" : "没有符合条件的反馈。"}</p>}
          />
        </>
      ) : null}
      {data.works ? (
        <>
          <FilterBar
            label="筛选作业墙作品"
            fixed={{ view: "works" }}
            filters={[
              {
                type: "select",
                name: "hidden",
                label: "显示状态",
                options: [
                  ["all", "全部"],
                  ["shown", "展示中"],
                  ["hidden", "已隐藏"],
                ],
                fallback: "all",
              },
              { type: "search", name: "q", label: "关键词", placeholder: "学员昵称、课程" },
            ]}
          />
          <DataTable
            caption="作业墙作品"
            columns={workColumns}
            page={data.works}
            rowKey={(row) => row.shareId}
            defaultSort={{ key: "excellentAt", dir: "desc" }}
            empty={<p>作业墙上还没有作品。</p>}
          />
        </>
      ) : null}
      <DialogForm
        open={replying !== null}
        title="回复反馈"
        onClose={() => {
          setReplying(null);
          reply.setProblem(null);
        }}
        busy={reply.busy}
        problem={reply.problem}
        submitLabel="发送回复"
        onSubmit={async (form) =>
          Boolean(
            replying &&
            (await reply.send(`/api/admin/feedback/${replying.id}/reply`, {
              body: { reply: text(form, "reply") },
              schema: feedbackRowSchema,
            })),
          )
        }
      >
        {replying ? <blockquote className="admin-quote">{replying.content}</blockquote> : null}
        <p>
          {replying?.userId
            ? "学员会在“消息通知”里收到这条回复。"
            : "这条反馈提交时未登录，回复只保存在这里，请通过联系方式答复。"}
        </p>
        <label className="form-field">
          <span className="form-field__label">回复 *</span>
          <textarea className="form-field__control" name="reply" rows={4} maxLength={500} />
        </label>
      </DialogForm>
    </Page>
  );
}
