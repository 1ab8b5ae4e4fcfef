/**
 * The filter bar above a staff table (/admin, /teach): a GET form whose fields are the page URL's
 * own query parameters, so a filter is a navigation like a sort or a page (see DataTable). Each
 * page describes its filters; the bar draws them the same way everywhere.
 */
import { useSearchParams } from "react-router-dom";
import { GetForm } from "../../routing/get-form";
import { Link } from "../../routing/link";

/** A choice of a select: the value sent in the URL and what the operator reads. */
export type FilterOption = readonly [value: string, label: string];

export type Filter =
  | {
      type: "search" | "text" | "date";
      name: string;
      label: string;
      placeholder?: string;
      size?: number;
      maxLength?: number;
    }
  | {
      type: "select";
      name: string;
      label: string;
      /** Every choice, the "all" one included (its value is what the API reads as no filter). */
      options: readonly FilterOption[];
      /** The choice shown when the URL names none (by default the first value ""). */
      fallback?: string;
    };

/** The choices of a select from a list of values and their labels. */
export function optionsOf<V extends string>(values: readonly V[], labels: Readonly<Record<V, string>>): FilterOption[] {
  return values.map((v): FilterOption => [v, labels[v]]);
}

export interface FilterBarProps {
  /** The form's name for screen readers ("筛选图书"). */
  label: string;
  filters: readonly Filter[];
  /** Fixed fields the form always sends (a tab the page is on). */
  fixed?: Readonly<Record<string, string>>;
  /** URL parameters carried over as they are (the sort, the page size) when the URL has them. */
  keep?: readonly string[];
  /** The submit button's text. */
  submitLabel?: string;
  /** The page without any parameter: shown as 清除条件 while the URL has some. */
  resetTo?: string;
}

function FilterControl({ filter, value }: { filter: Filter; value: string | null }) {
  if (filter.type === "select")
    return (
      <select name={filter.name} defaultValue={value ?? filter.fallback ?? ""}>
        {filter.options.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
    );
  return (
    <input
      name={filter.name}
      type={filter.type === "text" ? undefined : filter.type}
      defaultValue={value ?? ""}
      placeholder={filter.placeholder}
      size={filter.size}
      maxLength={filter.maxLength}
    />
  );
}

export function FilterBar({ label, filters, fixed = {}, keep = [], submitLabel = "筛选", resetTo }: FilterBarProps) {
  const [search] = useSearchParams();
  return (
    <GetForm className="admin-filters" role="search" aria-label={label}>
      {Object.entries(fixed).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {filters.map((filter) => (
        <label key={filter.name}>
          {filter.label}
          <FilterControl filter={filter} value={search.get(filter.name)} />
        </label>
      ))}
      {keep.map((key) => {
        const value = search.get(key);
        return value ? <input key={key} type="hidden" name={key} value={value} /> : null;
      })}
      <button type="submit" className="button button--small">
        {submitLabel}
      </button>
      {resetTo && search.toString() ? (
        <Link to={resetTo} className="desk-reset">
          清除条件
        </Link>
      ) : null}
    </GetForm>
  );
}
