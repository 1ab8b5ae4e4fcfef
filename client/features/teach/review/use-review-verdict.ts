/** The written review of a claimed attempt: level, comment, saving, returning and giving it back. */
import { useCallback, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { z } from "zod";
import {
  type ClaimResult,
  HOMEWORK_COMMENT_MAX,
  type Level,
  reviewInputSchema,
} from "../../../../shared/contracts/homework";
import { drawingsToSave, type EditorState, hasChanges } from "../../../components/homework/editor-state";
import { browserApi } from "../../../lib/api";
import { describeProblem } from "../../../lib/problem";
import { claimAttempt, reviewHref } from "../review-queue";

const doneSchema = z.unknown();

export function useReviewVerdict(claim: ClaimResult, editor: EditorState) {
  const navigate = useNavigate();
  const [level, setLevel] = useState<Level | null>(null);
  const [comment, setComment] = useState("");
  const [returning, setReturning] = useState(false);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);

  const save = useCallback(
    async (andNext: boolean) => {
      setProblem(null);
      const input = reviewInputSchema.safeParse({ level, comment, drawings: drawingsToSave(editor) });
      if (!level) {
        setProblem("请先选择评级（优 / 良 / 中 / 需加强）");
        return;
      }
      if (!input.success) {
        setProblem(input.error.issues[0]?.message ?? "请检查评语");
        commentRef.current?.focus();
        return;
      }
      setSaving(true);
      try {
        await browserApi(`/api/teach/homework/attempts/${encodeURIComponent(claim.attemptId)}/review`, {
          method: "POST",
          body: input.data,
          schema: doneSchema,
        });
        await goOn(andNext, "已保存批改");
      } catch (err) {
        setProblem(describeProblem(err).message);
      } finally {
        setSaving(false);
      }
    },
    [level, comment, editor, claim.attemptId], // eslint-disable-line react-hooks/exhaustive-deps -- goOn reads only the claim
  );

  async function goOn(andNext: boolean, notice: string) {
    if (andNext && claim.nextAttemptId) {
      try {
        const next = await claimAttempt(claim.nextAttemptId);
        await navigate(reviewHref(next.attemptId), { state: { claim: next } });
        return;
      } catch (err) {
        await navigate("/teach/homework", {
          state: { notice: `${notice}。下一份没能领取：${describeProblem(err).message}` },
        });
        return;
      }
    }
    await navigate("/teach/homework", {
      state: { notice: andNext ? `${notice}，队列里没有等待的作业了` : notice },
    });
  }

  async function returnWork(reason: string): Promise<string | null> {
    try {
      await browserApi(`/api/teach/homework/attempts/${encodeURIComponent(claim.attemptId)}/return`, {
        method: "POST",
        body: { reason, drawings: drawingsToSave(editor) },
        schema: doneSchema,
      });
      setReturning(false);
      await goOn(false, "已退回重写");
      return null;
    } catch (err) {
      return describeProblem(err).message;
    }
  }

  async function giveBack() {
    if (hasChanges(editor) && !window.confirm("批注还没有保存，确定放弃这份作业吗？")) return;
    try {
      await browserApi(`/api/teach/homework/attempts/${encodeURIComponent(claim.attemptId)}/release`, {
        method: "POST",
        body: {},
        schema: doneSchema,
      });
    } finally {
      await navigate("/teach/homework", { state: { notice: "已放弃这份作业，其他老师可以领取了" } });
    }
  }

  const insertPhrase = (phrase: string) => {
    const el = commentRef.current;
    const at = el ? el.selectionStart : comment.length;
    const end = el ? el.selectionEnd : comment.length;
    const next = `${comment.slice(0, at)}${phrase}${comment.slice(end)}`.slice(0, HOMEWORK_COMMENT_MAX);
    setComment(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + phrase.length, at + phrase.length);
    });
  };

  return {
    level,
    setLevel,
    comment,
    setComment,
    commentRef,
    insertPhrase,
    returning,
    setReturning,
    saving,
    problem,
    save,
    returnWork,
    giveBack,
  };
}

export type ReviewVerdict = ReturnType<typeof useReviewVerdict>;
