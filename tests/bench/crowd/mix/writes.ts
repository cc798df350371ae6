import type { AcknowledgedWrite } from '../types';
import { knownCases, loadCasesToWork, rememberRows } from './case-pool';
import { expectStatus, listOf, messageOf, type Answer } from './http';
import { chance, pick, randomInt, sample, uniqueToken, weighted } from './random';
import { call, get, lookupOnce, profileOfUser, type OpContext } from './session';
import { countSkip, forgetCase, isStaff, type KnownCase } from './state';

/**
 * Writes (10%): flag or unflag, assign or unassign (provider staff only: the
 * assign dialog offers managers and agents, whom only staff see), add a
 * comment, edit the verdict, bulk verdict on New cases; each on a case of the
 * user's own lists, as the grid's dialogs send them (web/src/features/cases/api).
 * A write refused by the case's state (someone else changed it: 409, or the
 * edit rules' 400) is tried on another case; read-only users write nothing.
 */
export type Acknowledge = (write: AcknowledgedWrite) => void;
type Outcome = 'done' | 'refused' | 'nothing';
type Writer = (ctx: OpContext, ack: Acknowledge) => Promise<Outcome>;

const ATTEMPTS = 4;

/** Texts people write, each with a token that finds the row in the durability audit. */
const NOTES = [
  'Called the cardholder, awaiting the signed receipt.',
  'Merchant sent proof of delivery; preparing the rebuttal.',
  'Refund already issued on this order, check with the acquirer.',
  'Second look needed: descriptor does not match the MID.',
  'Customer disputes the amount, invoice attached next.',
];
export const noteWithToken = () => `${pick(NOTES)} [crowd ${uniqueToken()}]`;

/** The action the write's history row names, for the audit's match. */
const VERDICT_NAMES: Record<number, string> = {
  1: 'Will Not Represent',
  2: 'Do Not Represent',
  3: 'Verdict Pending',
  4: 'Win',
  5: 'Loss',
  6: 'Pending',
};
export const verdictName = (id: number) => VERDICT_NAMES[id] ?? String(id);

/** A case in the state the action needs: from the user's lists, else a list opened to find one. */
async function caseFor(
  ctx: OpContext,
  want: (c: KnownCase) => boolean,
  list: 'new_cases' | 'working_cases' | null,
): Promise<KnownCase | undefined> {
  let found = knownCases(ctx.state, want);
  if (!found.length) found = (await loadCasesToWork(ctx, list)).filter(want);
  return found.length ? pick(found.slice(0, 50)) : undefined;
}

/**
 * A refusal by the case's state (`statuses`, and for a 400 only the edit rules' texts): the case is
 * forgotten (its row is stale) and another is tried.
 */
function refusedBy(ctx: OpContext, answer: Answer, c: KnownCase, statuses: number[]): boolean {
  if (!statuses.includes(answer.status)) return false;
  if (answer.status === 400 && !EDIT_RULES.test(messageOf(answer))) return false;
  forgetCase(ctx.state, c.id);
  return true;
}

/** The edit rules' refusals of a case whose state moved on (case-edit.ts). */
const EDIT_RULES = /can only be changed while|is required for this case|is required while/;

const ackOf = (ctx: OpContext, kind: string, answer: Answer, key: AcknowledgedWrite['key']) => ({
  tenant: ctx.user.tenant,
  kind,
  requestId: answer.requestId,
  key,
});

const flag: Writer = async (ctx, ack) => {
  const c = await caseFor(ctx, () => true, null);
  if (!c) return 'nothing';
  if (c.flag?.isFlagged) {
    const answer = await call(ctx, 'PATCH', `/api/cm/cases/${c.id}/flag/${c.flag.id}`, {
      body: { is_flagged: false },
    });
    // 404: the flag is no longer the case's current one; 409: already unflagged.
    if (refusedBy(ctx, answer, c, [404, 409])) return 'refused';
    expectStatus(answer, 200);
    rememberRows(ctx.state, answer);
    ack(ackOf(ctx, 'flag', answer, { caseId: c.id, flagged: false, flagId: c.flag.id }));
    return 'done';
  }
  const comment = noteWithToken();
  const answer = await call(ctx, 'POST', `/api/cm/cases/${c.id}/flag`, { body: { flag: true, comment } });
  if (refusedBy(ctx, answer, c, [409])) return 'refused';
  expectStatus(answer, 200);
  rememberRows(ctx.state, answer);
  ack(ackOf(ctx, 'flag', answer, { caseId: c.id, flagged: true, comment }));
  return 'done';
};

interface UserItem {
  id: number;
  fname: string;
  lname: string;
  username: string;
}

/** The assign dialog's options: GET /users/users for managers (8) and agents (9), as getAssignableUsers. */
async function assignees(ctx: OpContext): Promise<Array<{ id: number; label: string }>> {
  if (ctx.state.assignees && !chance(0.1)) return ctx.state.assignees;
  const lists = await Promise.all([8, 9].map((role) => get(ctx, '/api/users/users', { role, limit: 25 })));
  const users: UserItem[] = [];
  for (const answer of lists) {
    expectStatus(answer, 200);
    users.push(...listOf<UserItem>(answer).data);
  }
  ctx.state.assignees = users.map((u) => ({ id: u.id, label: `${u.fname} ${u.lname} (${u.username})` }));
  return ctx.state.assignees;
}

const assign: Writer = async (ctx, ack) => {
  const c = await caseFor(ctx, (x) => x.canAssign, 'working_cases');
  if (!c) return 'nothing';
  const staff = await assignees(ctx);
  const others = staff.filter((s) => s.id !== c.assignedUserId);
  const unassign = c.assignedUserId !== null && (chance(0.25) || !others.length);
  if (!unassign && !others.length) return 'nothing';
  const to = unassign ? null : pick(others);
  const answer = await call(ctx, 'PATCH', `/api/cm/cases/${c.id}`, { body: { user_id: to?.id ?? null } });
  // 409: no longer open (completed, expired, do not represent) since the list showed it.
  if (refusedBy(ctx, answer, c, [409])) return 'refused';
  expectStatus(answer, 200);
  rememberRows(ctx.state, answer);
  const profile = await profileOfUser(ctx);
  ack(
    ackOf(ctx, 'assign', answer, {
      caseId: c.id,
      userId: profile.id,
      action: to ? `Assigned to ${to.label}` : 'Unassigned',
      at: Date.now(),
    }),
  );
  return 'done';
};

const comment: Writer = async (ctx, ack) => {
  const c = await caseFor(ctx, () => true, null);
  if (!c) return 'nothing';
  const text = noteWithToken();
  const answer = await call(ctx, 'POST', `/api/cm/cases/${c.id}/comments`, { body: { comment: text } });
  expectStatus(answer, 200);
  rememberRows(ctx.state, answer);
  ack(ackOf(ctx, 'comment', answer, { caseId: c.id, text }));
  return 'done';
};

const newVerdict = (current: number) => pick([3, 4, 5, 6, 1].filter((v) => v !== current));
/** Status groups whose edit form also asks reason code and currency (edit-chargeback-dialog WIDE_GROUPS). */
const WIDE_GROUPS = [1, 5];

const verdict: Writer = async (ctx, ack) => {
  const editable = (x: KnownCase) => !ctx.state.editDisabledGroups.includes(x.statusGroupId);
  const c = await caseFor(ctx, editable, null);
  if (!c) return 'nothing';
  await lookupOnce(ctx, 'verdicts');
  const wide = WIDE_GROUPS.includes(c.statusGroupId);
  if (wide) await Promise.all([lookupOnce(ctx, 'rc'), lookupOnce(ctx, 'currencies')]);
  // The full edit form with only the verdict changed: the other fields as the row shows them.
  const verdictId = newVerdict(c.verdictId);
  const body: Record<string, unknown> = { verdict_id: verdictId };
  if (c.processorInvoiceId) body.processor_invoice_id = c.processorInvoiceId;
  body.case_amt = Math.round(c.disputeAmt * 100) / 100;
  if (wide) {
    body.reason_code_id = c.reasonCodeId;
    body.currency_id = c.currencyId;
  }
  const answer = await call(ctx, 'PATCH', `/api/cm/cases/${c.id}/edit`, { body });
  // 400: the case left New / Do Not Represent (or gained an invoice) since the list showed it.
  if (refusedBy(ctx, answer, c, [400, 409])) return 'refused';
  expectStatus(answer, 200);
  rememberRows(ctx.state, answer);
  const profile = await profileOfUser(ctx);
  ack(ackOf(ctx, 'verdict', answer, { caseId: c.id, verdictId, userId: profile.id, at: Date.now() }));
  return 'done';
};

const bulkVerdict: Writer = async (ctx, ack) => {
  // Only New cases are selectable in the grids (case-list.tsx bulk actions).
  const selectable = (x: KnownCase) =>
    x.statusId === 1 && !ctx.state.editDisabledGroups.includes(x.statusGroupId);
  let found = knownCases(ctx.state, selectable);
  if (found.length < 2) found = (await loadCasesToWork(ctx, 'new_cases')).filter(selectable);
  if (found.length < 2) return 'nothing';
  const chosen = sample(found.slice(0, 50), Math.min(found.length, randomInt(2, 10)));
  await lookupOnce(ctx, 'verdicts');
  const verdictId = pick([3, 4, 5, 6]);
  const answer = await call(ctx, 'PUT', '/api/cm/cases/edit', {
    body: { cases: chosen.map((c) => ({ id: c.id, verdict_id: verdictId })) },
  });
  expectStatus(answer, 200);
  rememberRows(ctx.state, answer);
  const profile = await profileOfUser(ctx);
  ack(
    ackOf(ctx, 'bulk-verdict', answer, {
      caseIds: chosen.map((c) => c.id).join(','),
      verdictId,
      userId: profile.id,
      at: Date.now(),
    }),
  );
  return 'done';
};

export async function writeCase(ctx: OpContext, ack: Acknowledge): Promise<void> {
  const profile = await profileOfUser(ctx);
  if (profile.isReadOnly) return countSkip(ctx.state, 'write: read-only user');
  const writers: Array<readonly [string, Writer, number]> = [
    ['flag', flag, 25],
    ['comment', comment, 30],
    ['verdict', verdict, 20],
    ['bulk-verdict', bulkVerdict, 10],
    ...(isStaff(profile) ? [['assign', assign, 20] as const] : []),
  ];
  const [name, writer] = weighted(writers.map((w) => [w, w[2]] as const));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const outcome = await writer(ctx, ack);
    if (outcome === 'done') return;
    if (outcome === 'nothing') return countSkip(ctx.state, `${name}: no case to act on`);
    ctx.state.refusals++;
  }
  countSkip(ctx.state, `${name}: refused ${ATTEMPTS} times`);
}
