/**
 * Database and account commands, on DATABASE_URL or the embedded database:
 *
 *   npm run db:migrate
 *   npm run db:seed                                   (demo data; in pro only with DEMO_DATA=1)
 *   npm run user:create -- --role operator --email a@b.cn [--phone 138…] [--nickname 名字]
 *   npm run user:role -- --grant teacher --phone 138…  (or --revoke operator --email …)
 *   npm run user:reset-2fa -- --email a@b.cn          (or --phone 138…: the phone was lost)
 *   npm run audit:verify                              (exits 1 when the audit log's chain is broken)
 *
 * In the container: `node dist/server/cli.js <command> …`.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  AccountCommandError,
  changeRole,
  CLUSTER_ARCHIVE_NAME,
  createAccount,
  type GrantableRole,
  migrate,
  openDatabase,
  resetTwoFactorOf,
  seedDemoData,
  verifyAuditChain,
} from "../api/index";
import { loadConfig } from "./config";
import { databaseOptions } from "./database-options";

const USAGE = `commands:
  migrate
  seed            demo accounts and catalogue (refused in pro unless DEMO_DATA=1)
  user:create     --role learner|teacher|operator (--phone 138… | --email a@b.cn) [--nickname 名字]
  user:role       (--grant | --revoke) teacher|operator (--phone … | --email …)
  user:reset-2fa  (--phone … | --email …)   turn off two-factor login (the phone was lost)
  audit:verify    walks the audit log's hash chain; names the first broken record and exits 1`;

const CHAIN_PROBLEMS = {
  altered: "its content is not what was recorded (changed afterwards)",
  unlinked: "the record chained before it is missing (deleted) or was changed",
  cut: "the records after it were deleted (the chain's head names a later record)",
} as const;

function options(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      role: { type: "string" },
      phone: { type: "string" },
      email: { type: "string" },
      nickname: { type: "string" },
      grant: { type: "string" },
      revoke: { type: "string" },
    },
    strict: true,
  });
  return values;
}

async function main(command: string | undefined, args: string[]) {
  const known = ["migrate", "seed", "user:create", "user:role", "user:reset-2fa", "audit:verify"];
  if (!command || !known.includes(command)) throw new AccountCommandError(`unknown command ${command ?? ""}\n${USAGE}`);
  const config = loadConfig(process.env, {
    clusterArchive: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", CLUSTER_ARCHIVE_NAME),
  });
  // Parse before touching the database, so a typo changes nothing.
  const opts = command.startsWith("user:") ? options(args) : {};
  if (command === "seed" && !config.demoData && config.deployEnv === "pro")
    throw new AccountCommandError(
      "refused: demo accounts (with the README's published passwords) are not created in the pro environment; set DEMO_DATA=1 to do it anyway, or DEPLOY_ENV=local on a local copy",
    );
  const database = await openDatabase(databaseOptions(config));
  try {
    const applied = await migrate(database);
    console.log(applied.length ? `migrations applied: ${applied.join(", ")}` : "database is up to date");
    if (command === "seed") {
      if (config.deployEnv === "pro") console.warn("WARNING: DEMO_DATA=1 in pro: creating the demo accounts");
      const seeded = await seedDemoData(database);
      console.log(`demo accounts created: ${seeded.accounts}`);
      console.log(seeded.catalogue ? "demo catalogue created" : "catalogue already present: left as it is");
      console.log(seeded.commerce ? "demo exchange mall created" : "exchange mall already present");
      console.log(seeded.homework ? "demo homework created" : "homework already present");
    } else if (command === "user:create") {
      const { user, password } = await createAccount(database, {
        role: opts.role as never,
        phone: opts.phone,
        email: opts.email,
        nickname: opts.nickname,
      });
      const how = user.email
        ? `sign in with the e-mail ${user.email} and this password`
        : `sign in with an SMS code to ${user.phone ?? ""}, then enter this password as the current one`;
      console.log(`created ${user.role} account #${user.id}`);
      console.log(`one-time password (shown only now): ${password}`);
      console.log(`${how}; a new password must be set before anything else.`);
    } else if (command === "user:role") {
      const change = await changeRole(
        database,
        { phone: opts.phone, email: opts.email },
        { grant: opts.grant as GrantableRole | undefined, revoke: opts.revoke as GrantableRole | undefined },
      );
      console.log(
        change.before === change.after
          ? `account #${change.userId}: role unchanged (${change.after})`
          : `account #${change.userId}: role ${change.before} → ${change.after}`,
      );
    } else if (command === "user:reset-2fa") {
      const { userId, reset } = await resetTwoFactorOf(database, { phone: opts.phone, email: opts.email });
      console.log(
        reset
          ? `account #${userId}: two-factor login turned off; it signs in with its password or a code and sets it up again`
          : `account #${userId}: two-factor login was not on (nothing changed)`,
      );
    } else if (command === "audit:verify") {
      const check = await verifyAuditChain(database.db);
      const { broken } = check;
      if (!broken) {
        console.log(`OK: the audit log's chain is whole, ${check.count} records; newest hash ${check.head}`);
      } else {
        const where = broken.id === null ? "its start" : `record #${broken.id}`;
        const when = broken.at ? ` (${broken.at.toISOString()}, ${broken.action ?? ""})` : "";
        console.error(`BROKEN: the audit log's chain breaks at ${where}${when}: ${CHAIN_PROBLEMS[broken.problem]}`);
        process.exitCode = 1;
      }
    }
  } finally {
    await database.close();
  }
}

main(process.argv[2], process.argv.slice(3)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
