/**
 * 退出登录 (clean layout). Asks first and ends the session only on 确认退出 (a POST): a link
 * from another site must never log anyone out.
 */
import { useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { Link } from "../../routing/link";
import { useRootData } from "../../lib/root-data";
import { EmptyState } from "../../components/EmptyState";
import { logOut } from "../../components/login/login-client";
import { describeProblem } from "../../lib/problem";
import { Page } from "../../components/Page";
import "./my-layout.css";

export default function LogoutPage() {
  const { viewer } = useRootData();
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (!viewer) {
    return (
      <Page className="logout-page">
        <EmptyState
          glyph="别"
          title="你当前没有登录"
          action={
            <Link className="button button--primary" to="/">
              返回首页
            </Link>
          }
        />
      </Page>
    );
  }

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await logOut();
    } catch (err) {
      setProblem(describeProblem(err).message);
      setBusy(false);
    }
  };

  // Back where the learner came from inside the site; the personal centre when they came from outside.
  const cancel = () => (location.key !== "default" ? navigate(-1) : navigate("/my"));

  return (
    <Page className="logout-page">
      <EmptyState
        glyph="别"
        title="确定要退出登录吗？"
        action={
          <>
            <button type="button" className="button button--primary" onClick={confirm} disabled={busy}>
              {busy ? "正在退出…" : "确认退出"}
            </button>
            <button type="button" className="button" onClick={cancel} disabled={busy}>
              取消
            </button>
          </>
        }
      >
        <p>当前账号：{viewer.nickname}。退出后，需要重新登录才能继续学习。</p>
        {problem ? (
          <p className="form-field__error" role="alert">
            {problem}
          </p>
        ) : null}
      </EmptyState>
    </Page>
  );
}
