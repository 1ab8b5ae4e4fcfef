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

/**
 * With API_ORIGIN the pages need that API: it must answer its /healthz within a short time.
 * One probe serves every readiness call for `cacheMs` (balancers probe often, from many places).
 */
export function remoteApiCheck(
  apiOrigin: string,
  {
    timeoutMs = 1500,
    cacheMs = 2000,
    now = Date.now,
  }: { timeoutMs?: number; cacheMs?: number; now?: () => number } = {},
): ReadinessCheck {
  let last: { at: number; probe: Promise<void> } | null = null;
  return {
    name: "api",
    run() {
      const at = now();
      if (last && at - last.at < cacheMs) return last.probe;
      const probe = fetch(`${apiOrigin}/healthz`, { signal: AbortSignal.timeout(timeoutMs) }).then(async (reply) => {
        await reply.body?.cancel();
        if (!reply.ok) throw new Error(`the API answered ${reply.status}`);
      });
      probe.catch(() => {});
      last = { at, probe };
      return probe;
    },
  };
}
