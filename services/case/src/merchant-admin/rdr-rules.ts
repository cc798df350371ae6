import { FIELD_REQUIRED, type RdrRules, type RuleCondition, type RuleSubject } from '@portal/contracts';
import { badRequest, notFound, type Db, type Queryable } from '@portal/core';
import type { Scope } from '../scope/scope';
import { findMid } from '../mids/mid-repository';
import { inScope } from './access';

export type RuleOwner = { kind: 'merchant' | 'mid'; id: number };

/** Operators that make sense per subject type (ids of cases.rule_operators). */
const OPERATORS_BY_TYPE: Record<RuleSubject['type'], number[]> = {
  string: [1, 2, 5, 6, 7],
  id: [2, 5, 7],
  number: [2, 3, 4, 5, 7],
  date: [2, 3, 4, 5],
};
// Thousands separators, at most two decimals, no sign (spec 3 §5 'RDR rule').
const NUMBER = /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

export async function ruleSubjects(db: Queryable): Promise<RuleSubject[]> {
  const { rows } = await db.query<RuleSubject>(
    `select id, name, type, format, endpoint from cases.rule_subjects order by id`,
  );
  return rows;
}

/**
 * Resolves the owner in scope and checks that its verifi_rdr deflector is
 * pending or active (rules are edited only then).
 */
async function assertOwner(db: Queryable, scope: Scope, owner: RuleOwner, forWrite: boolean): Promise<void> {
  let status: number | null = null;
  if (owner.kind === 'mid') {
    const mid = await findMid(db, scope, owner.id);
    if (!mid) throw notFound('MID not found.');
    status = mid.deflectors.find((d) => d.alias === 'verifi_rdr')?.status.id ?? null;
  } else {
    const { rows } = await db.query<{ status_id: number | null }>(
      `select greatest(
         (select md.status_id from cases.merchant_deflectors md join cases.deflectors f on f.id = md.deflector_id
          where md.tenant_id = $1 and md.merchant_id = $2 and f.alias = 'verifi_rdr'),
         (select max(x.status_id) from cases.mid_deflectors x join cases.deflectors f on f.id = x.deflector_id
          join cases.mids mi on mi.id = x.mid_id where mi.tenant_id = $1 and mi.merchant_id = $2 and f.alias = 'verifi_rdr')
       ) as status_id
       from cases.merchants where tenant_id = $1 and id = $2`,
      [scope.tenant, owner.id],
    );
    if (!rows[0] || !inScope(scope, owner.id)) throw notFound('Merchant not found.');
    status = rows[0].status_id;
  }
  if (forWrite && status !== 2 && status !== 3)
    throw badRequest('RDR rules need an active or pending Verifi RDR deflector.');
}

const ownerColumn = (o: RuleOwner) => (o.kind === 'mid' ? 'mid_id' : 'merchant_id');

export async function readRules(db: Queryable, scope: Scope, owner: RuleOwner): Promise<RdrRules> {
  await assertOwner(db, scope, owner, false);
  const { rows } = await db.query<{ subject_id: number; operator_id: number; value: string }>(
    `select subject_id, operator_id, value from cases.rdr_rules where tenant_id = $1 and ${ownerColumn(owner)} = $2 order by position`,
    [scope.tenant, owner.id],
  );
  return { data: rows };
}

/** Replaces the owner's rules; every condition complete and typed by its subject; one transaction. */
export async function saveRules(
  db: Db,
  scope: Scope,
  owner: RuleOwner,
  rules: RuleCondition[],
  username: string | null,
): Promise<RdrRules> {
  const subjects = await ruleSubjects(db);
  if (rules.length > subjects.length)
    throw badRequest(`rules: at most ${subjects.length} conditions (one per attribute).`);
  const errors: string[] = [];
  rules.forEach((r, i) => {
    const at = `rules[${i}]`;
    const subject = subjects.find((s) => s.id === r.subject_id);
    if (r.subject_id === null || r.operator_id === null || r.value === null || !r.value.trim()) {
      errors.push(`${at}: ${FIELD_REQUIRED}`);
      return;
    }
    if (!subject) return errors.push(`${at}.subject_id: unknown attribute ${r.subject_id}.`);
    if (!OPERATORS_BY_TYPE[subject.type].includes(r.operator_id))
      return errors.push(`${at}.operator_id: operator ${r.operator_id} does not apply to ${subject.name}.`);
    const v = r.value.trim();
    if (subject.type === 'number' && r.operator_id !== 7 && !NUMBER.test(v))
      errors.push(`${at}.value: ${subject.name} must be a number like 1,234.56 (no negatives).`);
    if (subject.type === 'date' && !validDate(v))
      errors.push(`${at}.value: ${subject.name} must be a date yyyy-mm-dd.`);
  });
  if (errors.length) throw badRequest(errors[0]!, { errors });
  return db.transaction(async (tx) => {
    await assertOwner(tx, scope, owner, true);
    await tx.query(`delete from cases.rdr_rules where tenant_id = $1 and ${ownerColumn(owner)} = $2`, [
      scope.tenant,
      owner.id,
    ]);
    for (const [i, r] of rules.entries())
      await tx.query(
        `insert into cases.rdr_rules (tenant_id, ${ownerColumn(owner)}, position, subject_id, operator_id, value, updated_by)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [scope.tenant, owner.id, i, r.subject_id, r.operator_id, r.value!.trim(), username],
      );
    return readRules(tx, scope, owner);
  });
}
