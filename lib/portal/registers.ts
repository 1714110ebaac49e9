// The admin console's view of the registers: per provider, from the attempt log (every instance's
// attempts, durable), the share of attempts that got an answer and the latency of those that asked
// the register, over the last hour and day, and the last error.
import { sql } from "drizzle-orm";
import { rowsOf, schema, type Db } from "@/lib/db";

const a = schema.enrichmentAttempts;

export interface WindowStats {
  attempts: number;
  /** Answered (found or not found) / attempts; null without attempts. */
  successRate: number | null;
  /** Over attempts that asked the register (not those an open breaker refused), ms. */
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface RegisterHealth {
  provider: string;
  hour: WindowStats;
  day: WindowStats;
  lastError: { code: string; at: Date } | null;
}

/** An attempt an open breaker ended at once: counted as a failure, but it took no register time. */
const REFUSED = "register_unavailable";

export async function registerHealth(db: Db, providers: readonly string[]): Promise<RegisterHealth[]> {
  if (!providers.length) return [];
  const list = sql.join(
    providers.map((p) => sql`${p}`),
    sql`, `,
  );
  const window = (name: string, interval: string) => {
    const within = sql.raw(`now() - interval '${interval}'`);
    const asked = sql`${a.startedAt} > ${within} and ${a.error} is distinct from ${REFUSED}`;
    return sql`
      count(*) filter (where ${a.startedAt} > ${within})::int as ${sql.identifier(`${name}_attempts`)},
      count(*) filter (where ${a.startedAt} > ${within} and ${a.outcome} in ('completed', 'not_found'))::int as ${sql.identifier(`${name}_answered`)},
      percentile_cont(0.5) within group (order by ${a.durationMs}) filter (where ${asked}) as ${sql.identifier(`${name}_p50`)},
      percentile_cont(0.99) within group (order by ${a.durationMs}) filter (where ${asked}) as ${sql.identifier(`${name}_p99`)}`;
  };
  const [stats, errors] = await Promise.all([
    db.execute(sql`
      select ${a.provider} as provider, ${window("hour", "1 hour")}, ${window("day", "1 day")}
      from ${a} where ${a.provider} in (${list}) and ${a.startedAt} > now() - interval '1 day'
      group by ${a.provider}`),
    db.execute(sql`
      select p.provider, last.error, last.started_at from unnest(array[${list}]::text[]) as p(provider)
      cross join lateral (
        select ${a.error} as error, ${a.startedAt} as started_at from ${a}
        where ${a.provider} = p.provider and ${a.outcome} in ('error', 'timeout')
        order by ${a.startedAt} desc limit 1
      ) last`),
  ]);
  type Row = Record<string, number | string | null> & { provider: string };
  const byProvider = new Map(rowsOf<Row>(stats).map((r) => [r.provider, r]));
  const lastErrors = new Map(
    rowsOf<{ provider: string; error: string | null; started_at: string | Date }>(errors).map((r) => [r.provider, r]),
  );
  const windowOf = (row: Row | undefined, name: string): WindowStats => {
    const attempts = Number(row?.[`${name}_attempts`] ?? 0);
    const ms = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      attempts,
      successRate: attempts ? Number(row?.[`${name}_answered`] ?? 0) / attempts : null,
      p50Ms: ms(row?.[`${name}_p50`]),
      p99Ms: ms(row?.[`${name}_p99`]),
    };
  };
  return providers.map((provider) => {
    const row = byProvider.get(provider);
    const last = lastErrors.get(provider);
    return {
      provider,
      hour: windowOf(row, "hour"),
      day: windowOf(row, "day"),
      lastError: last ? { code: last.error ?? "error", at: new Date(last.started_at) } : null,
    };
  });
}
