import type pg from 'pg';
import type { AcknowledgedWrite } from '../types';
import { verdictName } from './writes';

/**
 * The durability audit (issue 31 §2): every write the mix saw acknowledged
 * (2xx) must be in the database, as its effect and as the gateway's audit
 * entry (users.audit_log.request_id = the answer's x-request-id).
 *
 * Effects are checked by a record that later writes do not overwrite:
 *   comment        cases.case_comments row with the comment's unique text
 *   flag (on)      cases.case_flags row of the case with the flag's unique comment
 *   flag (off)     the case_flags row that was unflagged stays is_flagged = false (a new flag is a new row)
 *   assign         a cases.case_history row of the case by that user with that action, near the ack time
 *   verdict        a case_history row 'Edited: verdict X -> <new>' by that user near the ack time
 *   bulk-verdict   such a row for every case of the call
 *   upload-submit  the docs.representment_versions row (case, version) holding the uploaded key
 * History rows are matched one to one (two acknowledged assigns need two rows).
 */
export interface VerifyResult {
  kind: string;
  acknowledged: number;
  missing: number;
  examples: string[];
}

/** How far a history row's time may be from the moment the answer arrived (clock and queueing slack). */
const BEFORE_MS = 10 * 60_000;
const AFTER_MS = 2 * 60_000;
const EXAMPLES = 5;

const num = (w: AcknowledgedWrite, k: string) => Number(w.key[k]);
const str = (w: AcknowledgedWrite, k: string) => String(w.key[k] ?? '');
const describe = (w: AcknowledgedWrite) =>
  `${w.tenant} ${w.kind} ${JSON.stringify(w.key)} request ${w.requestId || '(none)'}`;

interface HistoryRow {
  id: string;
  case_id: string;
  user_id: string | null;
  action: string;
  created_at: Date;
}

/** Which acknowledged writes have their effect recorded (by index into `writes`). */
async function effectsFound(db: pg.Client, writes: AcknowledgedWrite[]): Promise<Set<number>> {
  const found = new Set<number>();
  const byTenant = new Map<string, number[]>();
  writes.forEach((w, i) => byTenant.set(w.tenant, [...(byTenant.get(w.tenant) ?? []), i]));
  for (const [tenant, indexes] of byTenant) {
    const of = (kind: string, extra: (w: AcknowledgedWrite) => boolean = () => true) =>
      indexes.filter((i) => writes[i]!.kind === kind && extra(writes[i]!));

    const comments = of('comment');
    if (comments.length) {
      const { rows } = await db.query<{ case_id: string; text: string }>(
        `select case_id, text from cases.case_comments where tenant_id = $1 and text = any($2::text[])`,
        [tenant, comments.map((i) => str(writes[i]!, 'text'))],
      );
      const have = new Set(rows.map((r) => `${r.case_id}|${r.text}`));
      for (const i of comments)
        if (have.has(`${num(writes[i]!, 'caseId')}|${str(writes[i]!, 'text')}`)) found.add(i);
    }

    const flagged = of('flag', (w) => w.key.flagged === true);
    if (flagged.length) {
      const { rows } = await db.query<{ case_id: string; comment: string }>(
        `select case_id, comment from cases.case_flags where tenant_id = $1 and comment = any($2::text[])`,
        [tenant, flagged.map((i) => str(writes[i]!, 'comment'))],
      );
      const have = new Set(rows.map((r) => `${r.case_id}|${r.comment}`));
      for (const i of flagged)
        if (have.has(`${num(writes[i]!, 'caseId')}|${str(writes[i]!, 'comment')}`)) found.add(i);
    }

    const unflagged = of('flag', (w) => w.key.flagged === false);
    if (unflagged.length) {
      const { rows } = await db.query<{ id: string; case_id: string }>(
        `select id, case_id from cases.case_flags where tenant_id = $1 and id = any($2::bigint[]) and not is_flagged`,
        [tenant, unflagged.map((i) => num(writes[i]!, 'flagId'))],
      );
      const have = new Set(rows.map((r) => `${r.case_id}|${r.id}`));
      for (const i of unflagged)
        if (have.has(`${num(writes[i]!, 'caseId')}|${num(writes[i]!, 'flagId')}`)) found.add(i);
    }

    const uploads = of('upload-submit');
    if (uploads.length) {
      const { rows } = await db.query<{ case_id: string; version: number; s3_key: string }>(
        `select v.case_id, v.version, d.s3_key from docs.representment_documents d
         join docs.representment_versions v on v.id = d.version_id
         where d.tenant_id = $1 and d.s3_key = any($2::text[])`,
        [tenant, uploads.map((i) => str(writes[i]!, 's3Key'))],
      );
      const have = new Set(rows.map((r) => `${r.case_id}|${r.version}|${r.s3_key}`));
      for (const i of uploads) {
        const w = writes[i]!;
        if (have.has(`${num(w, 'caseId')}|${num(w, 'version')}|${str(w, 's3Key')}`)) found.add(i);
      }
    }

    await historyFound(db, tenant, writes, [...of('assign'), ...of('verdict'), ...of('bulk-verdict')], found);
  }
  return found;
}

/** The history-recorded writes: each needs its own row(s), matched greedily in ack order. */
async function historyFound(
  db: pg.Client,
  tenant: string,
  writes: AcknowledgedWrite[],
  indexes: number[],
  found: Set<number>,
): Promise<void> {
  if (!indexes.length) return;
  const casesOf = (w: AcknowledgedWrite) =>
    w.kind === 'bulk-verdict' ? str(w, 'caseIds').split(',').map(Number) : [num(w, 'caseId')];
  const caseIds = [...new Set(indexes.flatMap((i) => casesOf(writes[i]!)))];
  const since = indexes.reduce((min, i) => Math.min(min, num(writes[i]!, 'at')), Infinity) - BEFORE_MS;
  const { rows } = await db.query<HistoryRow>(
    `select id, case_id, user_id, action, created_at from cases.case_history
     where tenant_id = $1 and case_id = any($2::bigint[]) and created_at >= to_timestamp($3 / 1000.0)
     order by created_at, id`,
    [tenant, caseIds, since],
  );
  const byCase = new Map<number, HistoryRow[]>();
  for (const r of rows) byCase.set(Number(r.case_id), [...(byCase.get(Number(r.case_id)) ?? []), r]);
  const used = new Set<string>();
  const sorted = [...indexes].sort((a, b) => num(writes[a]!, 'at') - num(writes[b]!, 'at'));
  for (const i of sorted) {
    const w = writes[i]!;
    const at = num(w, 'at');
    const matches = (r: HistoryRow) => {
      if (used.has(r.id) || Number(r.user_id) !== num(w, 'userId')) return false;
      const t = r.created_at.getTime();
      if (t < at - BEFORE_MS || t > at + AFTER_MS) return false;
      if (w.kind === 'assign') return r.action === str(w, 'action');
      const first = r.action.split('; ')[0]!;
      return first.startsWith('Edited: verdict ') && first.endsWith(`-> ${verdictName(num(w, 'verdictId'))}`);
    };
    const rowsFor = casesOf(w).map((c) => (byCase.get(c) ?? []).find(matches));
    if (rowsFor.every((r) => r !== undefined)) {
      for (const r of rowsFor) used.add(r!.id);
      found.add(i);
    }
  }
}

/** Which acknowledged writes have their audit entry (by index). */
async function auditsFound(db: pg.Client, writes: AcknowledgedWrite[]): Promise<Set<number>> {
  const found = new Set<number>();
  const tenants = [...new Set(writes.map((w) => w.tenant))];
  for (const tenant of tenants) {
    const ids = writes.filter((w) => w.tenant === tenant && w.requestId).map((w) => w.requestId);
    if (!ids.length) continue;
    const { rows } = await db.query<{ request_id: string }>(
      `select request_id from users.audit_log where tenant = $1 and request_id = any($2::text[])`,
      [tenant, ids],
    );
    const have = new Set(rows.map((r) => r.request_id));
    writes.forEach((w, i) => {
      if (w.tenant === tenant && have.has(w.requestId)) found.add(i);
    });
  }
  return found;
}

const KNOWN_KINDS = new Set(['comment', 'flag', 'assign', 'verdict', 'bulk-verdict', 'upload-submit']);

function summarize(prefix: string, writes: AcknowledgedWrite[], found: Set<number>): VerifyResult[] {
  const kinds = [...new Set(writes.map((w) => w.kind))].sort();
  return kinds.map((kind) => {
    const of = writes.map((w, i) => [w, i] as const).filter(([w]) => w.kind === kind);
    const missing = of.filter(([, i]) => !found.has(i));
    const unknown = prefix === '' && !KNOWN_KINDS.has(kind);
    return {
      kind: `${prefix}${kind}`,
      acknowledged: of.length,
      missing: missing.length,
      examples: missing
        .slice(0, EXAMPLES)
        .map(([w]) => (unknown ? `no check for kind ${kind}: ` : '') + describe(w)),
    };
  });
}

/**
 * Checks every acknowledged write: its effect (kinds as acknowledged) and its
 * audit entry (kinds 'audit:<kind>'). The gateway sends its audit entries in
 * batches about every second, so what is missing is looked for again until
 * `settleMs` has passed.
 */
export async function verifyAcknowledged(
  db: pg.Client,
  writes: AcknowledgedWrite[],
  options: { settleMs?: number } = {},
): Promise<VerifyResult[]> {
  const deadline = Date.now() + (options.settleMs ?? 10_000);
  for (;;) {
    const effects = await effectsFound(db, writes);
    const audits = await auditsFound(db, writes);
    const complete = effects.size === writes.length && audits.size === writes.length;
    if (complete || Date.now() >= deadline)
      return [...summarize('', writes, effects), ...summarize('audit:', writes, audits)];
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
