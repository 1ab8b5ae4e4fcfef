import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExchangeRecordBishanPage() {
  return (
    <Page>
      <EmptyState title="内容正在整理中">这里的内容将随课程与账号服务一起上线。</EmptyState>
    </Page>
  );
}
