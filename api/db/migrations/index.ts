/** Versioned migrations, applied in order; a shipped migration is never edited, only followed. */
import * as accounts from "./001_accounts";
import * as deviceLogins from "./002_device_logins";
import * as catalogue from "./003_catalogue";
import * as commerce from "./004_commerce";
import * as giftsGroups from "./005_gifts_groups";
import * as jobRuns from "./006_job_runs";
import * as passwordChange from "./007_password_change";
import * as sandboxSettlement from "./008_sandbox_settlement";
import * as homework from "./009_homework";
import * as catalogueChanges from "./010_catalogue_changes";
import * as staffAudit from "./011_staff_audit";
import * as practice from "./012_practice";
import * as adminOrders from "./013_admin_orders";
import * as staffCatalogue from "./014_staff_catalogue";
import * as staffCommerce from "./015_staff_commerce";
import * as learnerJourneys from "./016_learner_journeys";
import * as videoJobs from "./017_video_jobs";
import * as activityParticipation from "./018_activity_participation";
import * as catalogueChangesByRow from "./019_catalogue_changes_by_row";
import * as twoFactor from "./020_two_factor";
import * as auditChain from "./021_audit_chain";
import * as idempotencyLeases from "./022_idempotency_leases";
import * as homeworkWallChanges from "./023_homework_wall_changes";

export interface Migration {
  version: number;
  name: string;
  up: string;
}

export const migrations: Migration[] = [
  { version: 1, name: "accounts", up: accounts.up },
  { version: 2, name: "device_logins", up: deviceLogins.up },
  { version: 3, name: "catalogue", up: catalogue.up },
  { version: 4, name: "commerce", up: commerce.up },
  { version: 5, name: "gifts_groups", up: giftsGroups.up },
  { version: 6, name: "job_runs", up: jobRuns.up },
  { version: 7, name: "password_change", up: passwordChange.up },
  { version: 8, name: "sandbox_settlement", up: sandboxSettlement.up },
  { version: 9, name: "homework", up: homework.up },
  { version: 10, name: "catalogue_changes", up: catalogueChanges.up },
  { version: 11, name: "staff_audit", up: staffAudit.up },
  { version: 12, name: "practice", up: practice.up },
  { version: 13, name: "admin_orders", up: adminOrders.up },
  { version: 14, name: "staff_catalogue", up: staffCatalogue.up },
  { version: 15, name: "staff_commerce", up: staffCommerce.up },
  { version: 16, name: "learner_journeys", up: learnerJourneys.up },
  { version: 17, name: "video_jobs", up: videoJobs.up },
  { version: 18, name: "activity_participation", up: activityParticipation.up },
  { version: 19, name: "catalogue_changes_by_row", up: catalogueChangesByRow.up },
  { version: 20, name: "two_factor", up: twoFactor.up },
  { version: 21, name: "audit_chain", up: auditChain.up },
  { version: 22, name: "idempotency_leases", up: idempotencyLeases.up },
  { version: 23, name: "homework_wall_changes", up: homeworkWallChanges.up },
];
