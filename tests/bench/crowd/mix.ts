/**
 * The user mix of the crowd bench (issue 31 §2): what each simulated user
 * does, by weight, with the calls the web app makes for it. The engine
 * (engine.ts) schedules the operations at its arrival rate and measures each
 * request; the mix keeps per-user state in user.memory.mix (mix/state.ts).
 *
 *   sign-in 3%       GET /api/tenant, POST /api/users/auth/signin, POST /api/users/whoami, GET stack config
 *   refresh 5%       POST /api/users/auth/refresh with the refresh cookie
 *   dashboard 15%    the tenant's tiles, chargebacks by date, pie chart, top-5 MIDs (mix/screens.ts)
 *   case lists 40%   GET /api/cm/cases with tabs, search, sort, filters, deep pages (mix/case-query.ts)
 *   detail 15%       comments, history pages, the case, its document link (mix/case-reads.ts)
 *   writes 10%       flag, assign, comment, verdict, bulk verdict (mix/writes.ts)
 *   upload 3%        hold, templates, upload link, form post, submit (mix/upload.ts)
 *   reports 5%       /reports charts and win rate, MTD, MID health, KPIs (mix/screens.ts)
 *   live streams     one per simulated user, held open by openLiveStream (mix/live.ts)
 */
import type { CallType, Operation, SimUser } from './types';
import { caseDetail, caseList } from './mix/case-reads';
import { MixError, TransportError } from './mix/http';
import { dashboard, reports } from './mix/screens';
import { contextOf, ensureSession, refresh, signIn, type OpContext } from './mix/session';
import { stateOf, type LiveStats } from './mix/state';
import { uploadRepresentment } from './mix/upload';
import { writeCase, type Acknowledge } from './mix/writes';

export { openLiveStream } from './mix/live';
export { crowdUsers } from './mix/users';
export { verifyAcknowledged, type VerifyResult } from './mix/verify';

function operation(
  type: CallType,
  weight: number,
  body: (ctx: OpContext, ack: Acknowledge) => Promise<void>,
) {
  const op: Operation = {
    type,
    weight,
    async run(user, send, acknowledged) {
      try {
        await body(contextOf(user, send, type), acknowledged);
        return null;
      } catch (error) {
        // A request without an answer rejects, as the engine expects (it counted the request's failure).
        if (error instanceof TransportError) throw error;
        if (error instanceof MixError) return error.message;
        const e = error as Error;
        return `mix: ${e.name ?? 'Error'}: ${e.message ?? String(error)}`;
      }
    },
  };
  return op;
}

export const OPERATIONS: Operation[] = [
  operation('signin', 3, (ctx) => signIn(ctx.user, ctx.send)),
  operation('refresh', 5, async (ctx) => {
    await ensureSession(ctx.user, ctx.send);
    await refresh(ctx.user, ctx.send);
  }),
  operation('dashboard', 15, dashboard),
  operation('case-list', 40, caseList),
  operation('case-detail', 15, caseDetail),
  operation('write', 10, writeCase),
  operation('upload', 3, uploadRepresentment),
  operation('report', 5, reports),
];

/**
 * Whether the user may do the operation: read-only users write nothing (their
 * write and upload operations return at once without a request). An engine
 * that picks the operation first can pick its user among those that may.
 */
export function canRun(op: Operation, user: SimUser): boolean {
  if (op.type !== 'write' && op.type !== 'upload') return true;
  const profile = stateOf(user).profile;
  return profile ? !profile.isReadOnly : user.username !== 'readonly';
}

/** What the mix counted over the users: refusals retried, operations that found nothing to do, live streams. */
export function mixCounters(users: SimUser[]): {
  refusals: number;
  skipped: Record<string, number>;
  live: LiveStats;
} {
  const total = {
    refusals: 0,
    skipped: {} as Record<string, number>,
    live: { connects: 0, ready: 0, messages: 0, ends: 0, refusals: 0, failures: 0 },
  };
  for (const user of users) {
    const s = stateOf(user);
    total.refusals += s.refusals;
    for (const [k, n] of Object.entries(s.skipped)) total.skipped[k] = (total.skipped[k] ?? 0) + n;
    for (const k of Object.keys(total.live) as Array<keyof LiveStats>) total.live[k] += s.live[k];
  }
  return total;
}
