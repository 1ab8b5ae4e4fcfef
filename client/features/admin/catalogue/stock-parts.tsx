/** Parts the book and stationery editors share: a stock change with its reason, the change history and the cover upload. */
import { useState } from "react";
import { useRevalidator } from "react-router-dom";
import type { StockChange } from "../../../../shared/contracts/admin-catalogue";
import { formatDateTime } from "../../../../shared/format";
import { Field } from "../../../components/staff/staff-kit";
import { FormAlert } from "../../../components/form/FormAlert";
import { useMutation } from "../../../lib/mutation";
import { browserApi } from "../../../lib/api";
import { uploadFile } from "./catalogue-api";

/** Posts `{ delta, reason }` to `endpoint` (a book's or a variant's stock), then reloads the page's data. */
export function StockForm({ endpoint, label = "调整库存" }: { endpoint: string; label?: string }) {
  const [delta, setDelta] = useState("");
  const [reason, setReason] = useState("");
  const action = useMutation();
  const revalidator = useRevalidator();
  return (
    <form
      className="staff-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        void action
          .run(() => browserApi(endpoint, { method: "POST", body: { delta: Number(delta), reason } }), {
            done: "库存已调整",
          })
          .then((ok) => {
            if (ok) {
              setDelta("");
              setReason("");
            }
            void revalidator.revalidate();
          });
      }}
    >
      <Field label="数量" hint="正数入库，负数出库" error={action.errors.delta}>
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            type="number"
            value={delta}
            onChange={(e) => setDelta(e.target.value)}
            required
          />
        )}
      </Field>
      <Field label="原因" error={action.errors.reason}>
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            maxLength={200}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={action.busy}>
          调整库存
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
      </div>
    </form>
  );
}

export function StockHistory({ history, caption = "库存变动记录" }: { history: StockChange[]; caption?: string }) {
  if (history.length === 0) return <p className="staff-message">还没有库存调整记录。</p>;
  return (
    <table className="staff-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">时间</th>
          <th scope="col">变动</th>
          <th scope="col">变动后</th>
          <th scope="col">原因</th>
          <th scope="col">操作人</th>
        </tr>
      </thead>
      <tbody>
        {history.map((c) => (
          <tr key={c.id}>
            <td>{formatDateTime(c.createdAt)}</td>
            <td>{c.delta > 0 ? `+${c.delta}` : c.delta}</td>
            <td>{c.stockAfter}</td>
            <td>{c.reason}</td>
            <td>{c.actorName ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The cover: the current image (or the seal character) and an upload with the avatar's checks. */
export function CoverUpload({
  endpoint,
  coverImage,
  coverChar,
  alt,
  hint,
  width,
  height,
}: {
  endpoint: string;
  coverImage: string | null;
  coverChar: string;
  alt: string;
  hint: string;
  width: number;
  height: number;
}) {
  const cover = useMutation();
  const revalidator = useRevalidator();
  return (
    <div className="catalogue-cover">
      {coverImage ? (
        <img src={coverImage} alt={alt} width={width} height={height} />
      ) : (
        <div className="seal seal--xl">{coverChar}</div>
      )}
      <Field label="上传封面图片" hint={hint}>
        {(id) => (
          <input
            id={id}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file)
                void cover
                  .run(() => uploadFile(endpoint, file), { done: "封面已更新" })
                  .then(() => revalidator.revalidate());
            }}
          />
        )}
      </Field>
      <FormAlert look="staff" problem={cover.problem} done={cover.done} />
    </div>
  );
}
