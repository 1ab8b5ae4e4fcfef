import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function Placeholder() {
  return (
    <Page>
      <EmptyState title="即将开放" />
    </Page>
  );
}
