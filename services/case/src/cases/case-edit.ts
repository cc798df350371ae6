import {
  STATUS_GROUP,
  type CaseBulkEditBody,
  type CaseEditBody,
  type InternalContext,
} from '@portal/contracts';
import { badRequest, type Db } from '@portal/core';
import { emitEvent } from '@portal/jobs';
import { lockCases, nameOf, verdictEvent, write, type WriteResult } from './case-writes';

const EDIT_SUCCESS = 'Chargeback(s) successfully updated.';

/** PATCH /cm/cases/{id}/edit: verdict only, or the full edit (spec 2 §5). */
export function editCase(db: Db, ctx: InternalContext, id: number, body: CaseEditBody): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const c = (await lockCases(tx, scope, [id], null)).get(id)!;
    const verdict = await nameOf(tx, 'verdicts', body.verdict_id, 'verdict_id');
    const sets = ['verdict_id = $2'];
    const params: unknown[] = [id, body.verdict_id];
    const changes = [`verdict ${c.verdict} -> ${verdict}`];
    const full =
      body.processor_invoice_id !== undefined ||
      body.case_amt !== undefined ||
      body.reason_code_id !== undefined ||
      body.currency_id !== undefined;
    if (full) {
      const invoice = body.processor_invoice_id?.trim() ?? '';
      if (c.processor_invoice_id && !invoice)
        throw badRequest('processor_invoice_id is required for this case.');
      if (body.processor_invoice_id !== undefined) {
        params.push(invoice || null);
        sets.push(`processor_invoice_id = $${params.length}`);
        changes.push(`processor invoice ${invoice || '(none)'}`);
      }
      if (body.case_amt === undefined) throw badRequest('case_amt is required for this case.');
      params.push(body.case_amt);
      sets.push(`dispute_amt = $${params.length}`);
      changes.push(`dispute amount ${Number(c.dispute_amt).toFixed(2)} -> ${body.case_amt.toFixed(2)}`);
      const labelsEditable =
        c.status_group_id === STATUS_GROUP.New || c.status_group_id === STATUS_GROUP.DoNotRepresent;
      if (labelsEditable) {
        if (body.reason_code_id === undefined)
          throw badRequest('reason_code_id is required while the case is New or Do Not Represent.');
        if (body.currency_id === undefined)
          throw badRequest('currency_id is required while the case is New or Do Not Represent.');
        const rc = await tx.query<{ code: string; card_type_id: number; is_fraud: boolean }>(
          `select code, card_type_id, is_fraud from cases.reason_codes where id = $1`,
          [body.reason_code_id],
        );
        const reason = rc.rows[0];
        if (!reason) throw badRequest(`reason_code_id: unknown id ${body.reason_code_id}.`);
        if (reason.card_type_id !== c.card_type_id) {
          throw badRequest(`reason_code_id: ${reason.code} is not a ${c.card_type} reason code.`);
        }
        const currency = await nameOf(tx, 'currencies', body.currency_id, 'currency_id');
        params.push(body.reason_code_id, reason.is_fraud, body.currency_id);
        sets.push(
          `reason_code_id = $${params.length - 2}`,
          `is_fraud = $${params.length - 1}`,
          `dispute_currency_id = $${params.length}`,
        );
        changes.push(`reason code ${reason.code}`, `currency ${currency}`);
      } else if (body.reason_code_id !== undefined || body.currency_id !== undefined) {
        throw badRequest(
          'reason_code_id and currency_id can only be changed while the case is New or Do Not Represent.',
        );
      }
    }
    await tx.query(`update cases.cases set ${sets.join(', ')}, updated_at = now() where id = $1`, params);
    if (body.verdict_id !== c.verdict_id) await emitEvent(tx, c.tenant_id, verdictEvent(c, verdict));
    return {
      ids: [id],
      history: [{ caseId: id, action: `Edited: ${changes.join('; ')}` }],
      message: EDIT_SUCCESS,
    };
  });
}

/** PUT /cm/cases/edit: bulk verdict, all or nothing. */
export function bulkEditCases(db: Db, ctx: InternalContext, body: CaseBulkEditBody): Promise<WriteResult> {
  return write(db, ctx, async (tx, scope) => {
    const ids = body.cases.map((c) => c.id);
    const locked = await lockCases(tx, scope, ids, 'cases');
    const history = [];
    for (const [i, item] of body.cases.entries()) {
      const verdict = await nameOf(tx, 'verdicts', item.verdict_id, `cases[${i}].verdict_id`);
      await tx.query(`update cases.cases set verdict_id = $2, updated_at = now() where id = $1`, [
        item.id,
        item.verdict_id,
      ]);
      const was = locked.get(item.id)!;
      if (item.verdict_id !== was.verdict_id) await emitEvent(tx, was.tenant_id, verdictEvent(was, verdict));
      history.push({
        caseId: item.id,
        action: `Edited: verdict ${locked.get(item.id)!.verdict} -> ${verdict}`,
      });
    }
    return { ids, history, message: EDIT_SUCCESS };
  });
}
