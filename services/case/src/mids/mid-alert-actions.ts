import {
  DEFLECTOR_STATUS,
  type InternalContext,
  type MidAlertActionsBody,
  type MidAlertActionsResult,
} from '@portal/contracts';
import { notFound, type Db } from '@portal/core';
import type { Scope } from '../scope/scope';
import { findMid } from './mid-repository';
import { updateMidIn } from './mid-writes';

const isOn = (status: number) => status === DEFLECTOR_STATUS.pending || status === DEFLECTOR_STATUS.active;

/**
 * Alert Actions of the Merchant Settings MIDs grid: the requested alert
 * deflectors are switched on for every selected MID in one transaction (all
 * or none), each through the MID edit so that history rows and the
 * pending-activation rule are the same as in the MID form. Returns the
 * merchants whose cached entries the caller invalidates.
 */
export async function enrolMidsInAlerts(
  db: Db,
  scope: Scope,
  ctx: InternalContext,
  body: MidAlertActionsBody,
): Promise<{ result: MidAlertActionsResult; merchantIds: number[] }> {
  const { result, merchantIds } = await db.transaction(async (tx) => {
    const result: Omit<MidAlertActionsResult, 'status' | 'message'> = {
      updated: [],
      unchanged: [],
      inheriting: [],
    };
    const merchantIds = new Set<number>();
    for (const id of body.mid_ids) {
      const mid = await findMid(tx, scope, id, true);
      if (!mid) throw notFound(`MID ${id} not found.`);
      if (mid.inherit_merchant_deflectors) {
        result.inheriting.push(id);
        continue;
      }
      const on = new Set(mid.deflectors.filter((d) => isOn(d.status.id)).map((d) => d.id));
      if (body.deflector_ids.every((d) => on.has(d))) {
        result.unchanged.push(id);
        continue;
      }
      const wanted = [...new Set([...on, ...body.deflector_ids])].map((d) => ({ id: d }));
      await updateMidIn(tx, scope, ctx, id, { deflectors: wanted });
      result.updated.push(id);
      merchantIds.add(mid.merchant_id);
    }
    return { result, merchantIds };
  });
  const n = result.updated.length;
  return {
    result: {
      status: 'success',
      message: `Alert enrolment requested for ${n} MID${n === 1 ? '' : 's'}.`,
      ...result,
    },
    merchantIds: [...merchantIds],
  };
}
