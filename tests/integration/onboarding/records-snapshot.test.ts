import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoMerchantId, demoTenant, ONBOARDING_STATUS, type InternalContext } from '@portal/contracts';
import { systemContext, type Db, type Queryable } from '@portal/core';
import { getRecords } from '../../../services/case/src/onboarding/onboarding';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { demoCtx } from '../case/case-app';

/**
 * Issue 28 part 3: 'finalizes: exactly the live rows...' once read a file back with finalized_date
 * set but status_id 2. GET /cm/onboarding/{id}/records composed its answer from separate queries on
 * the pool: the scope check's read of the file gave status_id (2, finalizing), and a later query gave
 * finalized_date, after the finalize job had committed status 3 and finalized_date in one update.
 * Here the job's commit is made to land exactly between those reads (deterministically, through a db
 * handle that commits it right after the first read of the file): the answer must show one moment.
 */
let t: TestEnv;
beforeAll(async () => {
  t = await createTestEnv();
});
afterAll(async () => t?.close());

const ACME = demoTenant('acme');
const ctx = {
  ...systemContext('acme', 'snapshot'),
  ...demoCtx('acme', 'admin'),
  exp: Math.floor(Date.now() / 1000) + 60,
} as InternalContext;

/** A db whose every query path commits `race` (once) on another connection right after the first read of the file. */
function racingDb(db: Db, race: () => Promise<void>): Db {
  let fired = false;
  const hook = async (sql: string) => {
    if (!fired && /from cases\.onboarding_files f join cases\.onboarding_types/.test(sql)) {
      fired = true;
      await race();
    }
  };
  const wrap = (q: Queryable): Queryable => ({
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      const r = await q.query<R>(sql, params);
      await hook(sql);
      return r;
    },
  });
  return {
    kind: db.kind,
    query: wrap(db).query,
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    stream: (sql, params, size) => db.stream(sql, params, size),
    close: () => db.close(),
  };
}

it('answers status and finalized date of one moment when the finalize job commits between its reads', async () => {
  const { rows } = await t.db.query<{ id: string }>(
    `insert into cases.onboarding_files (tenant_id, merchant_id, type_id, status_id, filename, s3_key, username, rows_in_upload)
     values ('acme', $1, 2, $2, 'mids.csv', 'k', 'admin', 1) returning id`,
    [demoMerchantId(ACME, 'merchantA1'), ONBOARDING_STATUS.finalizing],
  );
  const id = Number(rows[0]!.id);
  await t.db.query(
    `insert into cases.onboarding_records (file_id, row_num, cells) values ($1, 1, '{"mid":"SNAP0001"}')`,
    [id],
  );
  // The finalize job's last step: status 3 and finalized_date in one update.
  const finish = async () => {
    await t.db.query(
      `update cases.onboarding_files set status_id = 3, finalized_date = now(), message = 'Created 1 MID(s).' where id = $1`,
      [id],
    );
  };
  const answer = await getRecords(racingDb(t.db, finish), ctx, id, {});
  // Either moment is a right answer; a mix of the two is not.
  const before = { status_id: ONBOARDING_STATUS.finalizing, finalized: false, message: null };
  const after = { status_id: ONBOARDING_STATUS.finalized, finalized: true, message: 'Created 1 MID(s).' };
  expect([before, after]).toContainEqual({
    status_id: answer.status_id,
    finalized: answer.finalized_date !== null,
    message: answer.message,
  });
  // The commit did land (the race happened), and a read after it shows the finished file.
  const again = await getRecords(t.db, ctx, id, {});
  expect(again.status_id).toBe(ONBOARDING_STATUS.finalized);
  expect(again.finalized_date).not.toBeNull();
});
