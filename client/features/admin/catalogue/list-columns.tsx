/** The columns and the filter the catalogue lists (图书, 文房, 课程) share: the number, the linked name, the state. */
import { createColumnHelper } from "@tanstack/react-table";
import { Link } from "../../../routing/link";
import { PUBLISH_STATES, PUBLISH_STATE_LABELS } from "../../../../shared/contracts/admin-catalogue";
import { optionsOf, type Filter } from "../../../components/table/FilterBar";

interface Listed {
  id: number;
  title: string;
  status: (typeof PUBLISH_STATES)[number];
}

/** 编号 and the name (linking to `${base}/:id`), both sortable. */
export function nameColumns<Row extends Listed>(nameHeader: string, base: string) {
  const column = createColumnHelper<Row>();
  return [
    column.accessor((row) => row.id, { id: "id", header: "编号", meta: { sortKey: "id" } }),
    column.accessor((row) => row.title, {
      id: "title",
      header: nameHeader,
      cell: (c) => (
        <Link className="text-link" to={`${base}/${c.row.original.id}`}>
          {c.getValue()}
        </Link>
      ),
      meta: { sortKey: "title" },
    }),
  ];
}

/** 状态 (未上架, 已上架, 已归档), sortable. */
export function statusColumn<Row extends Listed>() {
  return createColumnHelper<Row>().accessor((row) => row.status, {
    id: "status",
    header: "状态",
    cell: (c) => PUBLISH_STATE_LABELS[c.getValue()],
    meta: { sortKey: "status" },
  });
}

export const statusFilter: Filter = {
  type: "select",
  name: "status",
  label: "状态",
  options: [["", "全部"], ...optionsOf(PUBLISH_STATES, PUBLISH_STATE_LABELS)],
};
