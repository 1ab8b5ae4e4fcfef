import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function QrConfirmPage() {
  return (
    <Page>
      <EmptyState title="扫码登录确认即将开放" />
    </Page>
  );
}
