/**
 * Checks the crowd bench's user mix by hand (issue 31 §2): runs every
 * operation of mix.ts for every role (the demo accounts of both tenants) in a
 * plain sequential loop, prints the answers' status counts per operation and
 * call type, the requests per operation and every error text, holds one live
 * stream per account (and tries a sixth stream of one account), then runs the
 * durability audit on every acknowledged write.
 *
 *   npx tsx tests/bench/crowd/mix-check.ts [<gateway url> <database url>] [--rounds N]
 *
 * N rounds (default 10) run each operation twice per role and round (once per
 * tenant). Without urls it starts its own portal (mix/own-portal.ts: a
 * throwaway mixcheck_<random> database on 127.0.0.1:5432, default seed,
 * dropped at the end; Redis at REDIS_URL or 127.0.0.1:6379). Sign-ins are
 * paced under the tenants' limits, so a run takes some 4-5 minutes. Exits 1
 * when an operation failed or an acknowledged write is missing.
 */
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEMO_PASSWORD, DEMO_TENANTS } from '@portal/contracts';
import { canRun, mixCounters, OPERATIONS, openLiveStream, verifyAcknowledged } from './mix';
import { checkSend } from './mix/check-send';
import { stateOf } from './mix/state';
import { ACCOUNT_WEIGHTS } from './mix/users';
import type { AcknowledgedWrite, SimUser } from './types';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt === -1 ? 10 : Number(args.splice(roundsAt, 2)[1]);
const [givenGateway, givenDatabase] = args;
const CONFIG_DIR =
  process.env.TENANT_CONFIG_DIR ?? fileURLToPath(new URL('../../../config/tenants', import.meta.url));
const ROLES = ACCOUNT_WEIGHTS.map(([username]) => username);

interface Portal {
  gatewayUrl: string;
  databaseUrl: string;
  close(): Promise<void>;
}

async function portal(): Promise<Portal> {
  if (givenGateway && givenDatabase)
    return { gatewayUrl: givenGateway, databaseUrl: givenDatabase, close: async () => {} };
  // The services' migrations are imported as text: the same hook the build and the bench config give them.
  register(new URL('./mix/sql-text-hook.mjs', import.meta.url));
  const { startOwnPortal } = await import('./mix/own-portal');
  console.log('starting a throwaway portal (create, migrate, seed the default scale)...');
  return startOwnPortal();
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** Five more streams of an account that holds one: the sixth should be refused (429, at most 5 per user). */
async function sixthStreamRefusals(user: SimUser, gatewayUrl: string): Promise<string> {
  const before = stateOf(user).live.refusals;
  const extra = [];
  for (let i = 0; i < 5; i++) extra.push(await openLiveStream(user, gatewayUrl));
  await sleep(1500);
  const refused = stateOf(user).live.refusals - before;
  for (const close of extra) close();
  await sleep(500);
  return refused
    ? `refused (${refused} attempts answered 429)`
    : "NOT refused: six streams open (the gateway's slots of an account lapse 90 s after its last new stream)";
}

/** Every operation for every account, round after round; answers the runs and errors by operation and role. */
async function runRounds(gatewayUrl: string, http: ReturnType<typeof checkSend>, accounts: SimUser[]) {
  const writes: AcknowledgedWrite[] = [];
  const runs = new Map<string, { ok: number; failed: number }>();
  const errors = new Map<string, string[]>();
  let sixthEarly = '';
  const started = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const op of OPERATIONS) {
      http.setOperation(op.type);
      for (const user of accounts) {
        if (!canRun(op, user)) continue;
        const error = await op
          .run(user, http.forTenant(user.tenant), (w) => writes.push(w))
          .catch((e: unknown) => `transport: ${(e as Error).message}`);
        const key = `${op.type}|${user.username}`;
        const r = runs.get(key) ?? { ok: 0, failed: 0 };
        if (error) {
          r.failed++;
          errors.set(key, [...(errors.get(key) ?? []), `${user.tenant}: ${error}`]);
        } else r.ok++;
        runs.set(key, r);
      }
    }
    console.log(`round ${round + 1}/${ROUNDS} done (${Math.round((Date.now() - started) / 1000)} s)`);
    if (round === 0) sixthEarly = await sixthStreamRefusals(accounts[0]!, gatewayUrl);
  }
  return { writes, runs, errors, sixthEarly };
}

function printRuns(
  http: ReturnType<typeof checkSend>,
  runs: Map<string, { ok: number; failed: number }>,
  errors: Map<string, string[]>,
): void {
  console.log('\n== operations per role (runs over both tenants: ok / failed)');
  console.log(pad('operation', 13) + ROLES.map((r) => pad(r, 16)).join(''));
  for (const op of OPERATIONS) {
    const cells = ROLES.map((role) => {
      const r = runs.get(`${op.type}|${role}`);
      return pad(r ? `${r.ok} / ${r.failed}` : '-', 16);
    });
    console.log(pad(op.type, 13) + cells.join(''));
  }
  console.log('\n== answers per operation and call type (status: count)');
  for (const [key, byStatus] of [...http.counts.byOperation].sort()) {
    const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
    console.log(`${pad(key, 28)} ${statuses.join(', ')}`);
  }
  console.log('\n== requests per operation: all / counted by the per-user limit (all but the public calls)');
  for (const op of OPERATIONS) {
    const opRuns = sum(
      [...runs].filter(([k]) => k.startsWith(`${op.type}|`)).map(([, r]) => r.ok + r.failed),
    );
    const requests = sum(
      [...http.counts.byOperation]
        .filter(([k]) => k.startsWith(`${op.type} `))
        .map(([, s]) => sum(s.values())),
    );
    const limited = requests - (http.counts.unlimited.get(op.type) ?? 0);
    if (opRuns)
      console.log(`${pad(op.type, 13)} ${(requests / opRuns).toFixed(2)} / ${(limited / opRuns).toFixed(2)}`);
  }
  if (!errors.size) return console.log('\nno operation failed');
  console.log('\n== errors');
  for (const [key, list] of errors)
    console.log(`${key} (${list.length}):\n  ${[...new Set(list)].slice(0, 5).join('\n  ')}`);
}

/** The durability audit; true when every acknowledged write was found, effect and audit entry. */
async function audit(databaseUrl: string, writes: AcknowledgedWrite[]): Promise<boolean> {
  console.log(`\n== durability audit of ${writes.length} acknowledged writes`);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const results = await verifyAcknowledged(db, writes);
    for (const r of results) {
      const found = r.acknowledged - r.missing;
      console.log(
        `${pad(r.kind, 22)} found ${pad(found, 5)} of ${pad(r.acknowledged, 5)} missing ${r.missing}`,
      );
      for (const e of r.examples) console.log(`    ${e}`);
    }
    return results.every((r) => r.missing === 0);
  } finally {
    await db.end();
  }
}

async function main(): Promise<boolean> {
  const own = await portal();
  try {
    console.log(`gateway ${own.gatewayUrl}, database ${own.databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
    const http = checkSend(own.gatewayUrl, CONFIG_DIR);
    const accounts: SimUser[] = DEMO_TENANTS.flatMap((t) =>
      ROLES.map((username) => ({ tenant: t.id, username, password: DEMO_PASSWORD, memory: {} })),
    );
    const closers: Array<() => void> = [];
    let result: Awaited<ReturnType<typeof runRounds>>;
    try {
      for (const user of accounts) closers.push(await openLiveStream(user, own.gatewayUrl));
      result = await runRounds(own.gatewayUrl, http, accounts);
      printRuns(http, result.runs, result.errors);
      const counters = mixCounters(accounts);
      console.log(`\nrefused by business rules and retried on another case: ${counters.refusals}`);
      console.log(`found nothing to act on: ${JSON.stringify(counters.skipped)}`);
      console.log(`live streams: ${JSON.stringify(counters.live)}`);
      const sixthLate = await sixthStreamRefusals(accounts[0]!, own.gatewayUrl);
      console.log(
        `a sixth stream of ${accounts[0]!.tenant}/${accounts[0]!.username}: after round 1 ${result.sixthEarly}; at the end ${sixthLate}`,
      );
    } finally {
      for (const close of closers) close();
      http.close();
    }
    const durable = await audit(own.databaseUrl, result.writes);
    return result.errors.size === 0 && durable;
  } finally {
    await own.close();
  }
}

main().then(
  (ok) => {
    console.log(ok ? '\nOK' : '\nFAILED');
    process.exit(ok ? 0 : 1);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
