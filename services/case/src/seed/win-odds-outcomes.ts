import { DEMO_TENANTS, type DemoTenant } from '@portal/contracts';
import type { Queryable } from '@portal/core';
import { trainTenant } from '../win-odds/win-odds-service';

/**
 * Demo outcomes with structure (issue 33 part 3), so the win odds model has
 * something to learn and its evaluation means something. Every case that
 * got to the document stages has evidence (cases.case_evidence): each kind
 * attached with its own chance, on a day 0-19 days before the due date;
 * every represented case's verdict (TransportCompleted) is then drawn as
 * Win with probability sigmoid(logit), where the logit adds:
 *
 *   base -0.6;
 *   reason code: -0.5 for a fraud code, plus a per-code effect between -0.6
 *     and +0.6 ((id x 37 mod 9 - 4) x 0.15);
 *   card network: Visa 0, Mastercard -0.2, Amex +0.3, Discover +0.1;
 *   amount: under 50 +0.2, 50-200 0, 200-1,000 -0.2, 1,000 or more -0.5;
 *   evidence: Invoice +0.3, Proof of Delivery +1.0, Service Agreement +0.4,
 *     Customer Communication +0.5, Terms +0.2, AVS/CVV +1.0 on fraud codes
 *     (+0.2 otherwise), Refund Policy +0.3;
 *   days left when the evidence went in: 3 or fewer -0.6, 4-10 -0.2.
 *
 * 10% of represented cases stay Pending (no verdict yet). Everything is a
 * hash of the case id, so the same scale gives the same outcomes, and it is
 * all SQL inside the seed's insert (no query per row: the 1,000,000-case
 * seed stays one statement per tenant).
 */
const EVIDENCE_HASH_SEED = 3301;
const VERDICT_HASH_SEED = 3302;

/** Chance (out of 128) that each kind is attached, by builder document type. */
const KIND_CHANCE: ReadonlyArray<[kind: number, outOf128: number]> = [
  [1, 102],
  [2, 58],
  [3, 19],
  [4, 45],
  [5, 38],
  [6, 32],
  [7, 26],
  [9, 13],
];

/** The evidence bit mask of a case (bit k: kind k), never empty: an invoice when no other kind is drawn. */
export function evidenceMaskSql(caseId: string): string {
  const h = `hashint8extended(${caseId}, ${EVIDENCE_HASH_SEED})`;
  const bits = KIND_CHANCE.map(
    ([kind, chance], i) => `(case when ((${h} >> ${i * 7}) & 127) < ${chance} then ${1 << kind} else 0 end)`,
  ).join(' | ');
  return `(case when (${bits}) = 0 then 2 else (${bits}) end)`;
}

/** Days left when the evidence went in: 0-19 (every cycle gives at least 20 days). */
export function evidenceDaysLeftSql(caseId: string): string {
  return `((((hashint8extended(${caseId}, ${EVIDENCE_HASH_SEED}) >> 56) & 127) % 20)::int)`;
}

const has = (mask: string, kind: number) => `((${mask}) & ${1 << kind}) <> 0`;

/** The verdict of a represented case: 4 Win, 5 Loss, 6 Pending (see above). */
export function seededVerdictSql(v: {
  caseId: string;
  reasonCodeId: string;
  isFraud: string;
  cardTypeId: string;
  amount: string;
}): string {
  const mask = evidenceMaskSql(v.caseId);
  const days = evidenceDaysLeftSql(v.caseId);
  const u = `hashint8extended(${v.caseId}, ${VERDICT_HASH_SEED})`;
  const logit = `(-0.6
    + case when ${v.isFraud} then -0.5 else 0 end + ((${v.reasonCodeId} * 37) % 9 - 4) * 0.15
    + case ${v.cardTypeId} when 2 then -0.2 when 3 then 0.3 when 4 then 0.1 else 0 end
    + case when ${v.amount} < 50 then 0.2 when ${v.amount} < 200 then 0 when ${v.amount} < 1000 then -0.2 else -0.5 end
    + case when ${has(mask, 1)} then 0.3 else 0 end + case when ${has(mask, 2)} then 1.0 else 0 end
    + case when ${has(mask, 3)} then 0.4 else 0 end + case when ${has(mask, 4)} then 0.5 else 0 end
    + case when ${has(mask, 5)} then 0.2 else 0 end
    + case when ${has(mask, 6)} then (case when ${v.isFraud} then 1.0 else 0.2 end) else 0 end
    + case when ${has(mask, 7)} then 0.3 else 0 end
    + case when ${days} <= 3 then -0.6 when ${days} <= 10 then -0.2 else 0 end)`;
  return `(case when ((${u}) & 1023) < 102 then 6
    when (((${u}) >> 10) & 65535) / 65536.0 < 1 / (1 + exp(-${logit})) then 4 else 5 end)`;
}

/** Document stages: the cases that have evidence attached. */
const WITH_EVIDENCE = [3, 6, 7, 8, 9, 10];

/** The evidence rows of the tenant's seeded cases, in one statement. */
export async function seedCaseEvidence(tx: Queryable, tenant: DemoTenant): Promise<void> {
  await tx.query(
    `insert into cases.case_evidence (tenant_id, case_id, kinds_mask, first_attached_on)
     select tenant_id, id, ${evidenceMaskSql('id')},
       greatest(date_post, least(date_due - ${evidenceDaysLeftSql('id')}, current_date))
     from cases.cases where tenant_id = $1 and status_id = any($2::int[])
     on conflict (case_id) do nothing`,
    [tenant.id, WITH_EVIDENCE],
  );
}

/** A first model per demo tenant, so the case lists show odds from the first start (the jobs keep them fresh). */
export async function seedWinOddsModels(db: Queryable, configDir: string | undefined): Promise<void> {
  for (const tenant of DEMO_TENANTS) await trainTenant(db, tenant.id, { configDir });
}
