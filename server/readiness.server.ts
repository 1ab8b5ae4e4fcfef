/**
 * Readiness for the load balancer: 503 while starting, while draining, or when a dependency
 * (the database) does not answer.
 */
export type ReadinessCheck = { name: string; run: () => Promise<void> };

export interface ReadinessReport {
  ready: boolean;
  state: "starting" | "ready" | "draining";
  checks: Record<string, "ok" | "failing">;
}

export class Readiness {
  private state: ReadinessReport["state"] = "starting";
  constructor(
    private readonly checks: ReadinessCheck[] = [],
    private readonly timeoutMs = 2000,
  ) {}

  markReady() {
    if (this.state === "starting") this.state = "ready";
  }

  markDraining() {
    this.state = "draining";
  }

  get draining(): boolean {
    return this.state === "draining";
  }

  async check(): Promise<ReadinessReport> {
    const checks: ReadinessReport["checks"] = {};
    await Promise.all(
      this.checks.map(async (c) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            c.run(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error("timeout")), this.timeoutMs);
            }),
          ]);
          checks[c.name] = "ok";
        } catch {
          checks[c.name] = "failing";
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const healthy = Object.values(checks).every((v) => v === "ok");
    return { ready: this.state === "ready" && healthy, state: this.state, checks };
  }
}
