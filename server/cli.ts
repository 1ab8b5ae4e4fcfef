/** `npm run db:migrate` and `npm run db:seed`, on DATABASE_URL or the embedded database. */
import { openDatabase } from "../api/db/database.server";
import { migrate } from "../api/db/migrate.server";
import { seedCatalogue } from "../api/db/seed-catalogue.server";
import { seedCommerce } from "../api/db/seed-commerce.server";
import { seed } from "../api/db/seed.server";
import { loadConfig } from "./config.server";

async function main(command: string | undefined) {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const applied = await migrate(database);
    console.log(applied.length ? `migrations applied: ${applied.join(", ")}` : "database is up to date");
    if (command === "seed") {
      console.log(`demo accounts created: ${await seed(database)}`);
      console.log(
        (await seedCatalogue(database)) ? "demo catalogue created" : "catalogue already present: left as it is",
      );
      console.log((await seedCommerce(database)) ? "demo exchange mall created" : "exchange mall already present");
    } else if (command !== "migrate") throw new Error(`unknown command ${command ?? ""}: use migrate or seed`);
  } finally {
    await database.close();
  }
}

main(process.argv[2]).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
