/** An activity opened from its link (/activitys/{token}): its landing content. Unknown tokens are 404. */
import { useLoaderData } from "react-router-dom";
import { activityDetailSchema } from "../../../shared/contracts/activities";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ActivityArticle, activityMeta } from "./activity-parts";

export async function loader({ env, params, signal }: PageLoaderArgs) {
  // An unknown token answers 404, which the page pipeline turns into the 404 page.
  const activity = await env.api(`/api/activities/${encodeURIComponent(params.token ?? "")}`, {
    signal,
    schema: activityDetailSchema,
  });
  return { activity, meta: activityMeta(activity) };
}

export default function ActivityLandingPage() {
  const { activity } = useLoaderData<typeof loader>();
  return (
    <Page title={activity.title}>
      <ActivityArticle activity={activity} />
    </Page>
  );
}
