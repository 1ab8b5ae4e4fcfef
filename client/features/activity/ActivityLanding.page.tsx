/** An activity opened from its link (/activitys/{token}): its landing content. Unknown tokens are 404. */
import { useLoaderData } from "react-router-dom";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ActivityArticle, activityMeta, loadParticipation } from "./activity-article";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

export async function loader({ env, params, signal }: PageLoaderArgs) {
  // An unknown token answers 404, which the page pipeline turns into the 404 page.
  const activity = await env.api(`/api/activities/${encodeURIComponent(params.token ?? "")}`, {
    signal,
    schema: activitiesContract().then((m) => m.activityDetailSchema),
  });
  const participation = await loadParticipation(env, activity.token, signal);
  return { activity, participation, meta: activityMeta(activity) };
}

export default function ActivityLandingPage() {
  const { activity, participation } = useLoaderData<typeof loader>();
  return (
    <Page title={activity.title}>
      <ActivityArticle activity={activity} participation={participation} />
    </Page>
  );
}
