import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CASE_STATUS,
  REPRESENTMENT_MESSAGES as M,
  UPLOAD_ORIGIN,
  UPLOADABLE_STATUSES,
  type CaseDetail,
  type InternalContext,
} from '@portal/contracts';
import { HttpError, insideTransaction } from '@portal/core';
import { newObjectKey, openObjectStore, type ObjectStore } from '@portal/storage';
import {
  acceptRepresentment,
  type AcceptDeps,
  type RepresentmentInput,
  type UploadRoute,
} from '../../../services/docs/src/representment/accept-representment';
import { recordUploadLink } from '../../../services/docs/src/representment/version-repository';
import { makePdf } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';
import { recordingDb, type DbCall } from './docs-helpers';

/**
 * acceptRepresentment itself (the one pipeline of POST /docs/representment
 * and POST /docs/builder/upload), on a real database that records every
 * statement and the real object store, with the case service played by a
 * stand-in that counts its calls: the case is asked for once, the case
 * service's SQL API is reached only where it must be (the mark and the
 * status move), no call or route step runs inside the transaction, and a
 * generated document goes first, or goes away with a refused transaction.
 * The routes' answers are covered through the gateway (upload*.test.ts,
 * builder.test.ts).
 */
let t: TestEnv;
let store: ObjectStore;
let ctx: InternalContext;
const calls: DbCall[] = [];
/** New cases of acme (their merchant), as the case service would answer them; taken one per test step. */
const known = new Map<number, { id: number; merchant_id: number }>();
const newCases: number[] = [];
/** Whether each case-service call and route step ran inside a transaction. */
const inTransaction: boolean[] = [];

const UPLOAD: UploadRoute = {
  notUploadable: M.notUploadable,
  verb: 'uploaded',
  requireDocument: true,
  reportRefusals: true,
};

function deps(): AcceptDeps & { caseCalls: number[] } {
  const caseCalls: number[] = [];
  return {
    db: recordingDb(t.db, calls),
    store,
    tenantConfigDir: t.env.TENANT_CONFIG_DIR,
    log: { error: () => undefined },
    caseCalls,
    cases: {
      caseDetail: async (_ctx, caseId) => {
        caseCalls.push(caseId);
        inTransaction.push(insideTransaction());
        const c = known.get(caseId)!;
        return { id: c.id, merchant_id: c.merchant_id, status_id: 1, status: 'New' } as CaseDetail;
      },
    },
  };
}
function takeCase() {
  const id = newCases.pop();
  if (!id) throw new Error('out of New cases');
  return known.get(id)!;
}

/** A PDF stored under an upload link issued for the case, as the upload form leaves it. */
async function storedPdf(caseId: number, pages = 1) {
  const bytes = await makePdf(pages);
  const key = newObjectKey('acme', 'representments', 'evidence.pdf');
  await store.put('acme', key, bytes, { contentType: 'application/pdf' });
  await recordUploadLink(t.db, {
    tenant: 'acme',
    key,
    caseId,
    userId: ctx.user_id,
    expiresAt: new Date(Date.now() + 600_000),
  });
  return { s3_key: key, filename: 'evidence.pdf', content_type: 'application/pdf' };
}

const input = (caseId: number, files: RepresentmentInput['files'], route = UPLOAD): RepresentmentInput => ({
  caseId,
  from: UPLOADABLE_STATUSES,
  files,
  templates: [],
  origin: UPLOAD_ORIGIN,
  qcReview: false,
  isReupload: false,
  comment: null,
  route,
});

/** The statements since `from` that reached the case service's SQL API (cases_api). */
const caseApiCalls = (from: number) =>
  calls
    .slice(from)
    .filter((c) => c.sql.includes('cases_api'))
    .map((c) => c.sql.match(/cases_api\.\w+/)![0]);

async function validationEvents(caseId: number) {
  const { rows } = await t.db.query<{ message: string; merchant_id: number }>(
    `select e->'data'->>'message' as message, (e->>'merchant_id')::int as merchant_id
       from pgboss.job j, jsonb_array_elements(j.data->'input'->'events') e
      where j.name = 'events.dispatch' and e->>'type' = 'DOC_VALIDATION_ERROR'
        and (e->'data'->>'case_id')::bigint = $1`,
    [caseId],
  );
  return rows;
}

async function documentsOf(caseId: number) {
  const { rows } = await t.db.query<{ order_num: number; filename: string; s3_key: string }>(
    `select d.order_num, d.filename, d.s3_key from docs.representment_documents d
       join docs.representment_versions v on v.id = d.version_id where v.case_id = $1 order by d.order_num`,
    [caseId],
  );
  return rows;
}

beforeAll(async () => {
  t = await createTestEnv();
  store = await openObjectStore(t.env, t.deps.log, { linkSecret: randomBytes(32).toString('base64url') });
  const { rows: users } = await t.db.query<{ id: number; merchant_id: number }>(
    `select id, merchant_id from users.users where tenant = 'acme' and username = 'manager'`,
  );
  const userId = Number(users[0]!.id);
  ctx = {
    tenant: 'acme',
    user_id: userId,
    actor_id: userId,
    username: 'manager',
    roles: [],
    merchant_id: Number(users[0]!.merchant_id),
    read_only: false,
    mids_allowed: [],
    mids_excluded: [],
    request_id: 'accept-representment-test',
    kind: 'user',
    exp: 0,
  };
  const { rows } = await t.db.query<{ id: number; merchant_id: number }>(
    `select id, merchant_id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 10`,
  );
  for (const r of rows) known.set(Number(r.id), { id: Number(r.id), merchant_id: Number(r.merchant_id) });
  newCases.push(...known.keys());
}, 60_000);
afterAll(async () => {
  await store?.close();
  await t?.close();
});

describe('acceptRepresentment', () => {
  it('asks the case service once; its SQL API only for the mark and the status move, outside any call', async () => {
    const c = takeCase();
    const file = await storedPdf(c.id, 2);
    const d = deps();
    const from = calls.length;
    inTransaction.length = 0;
    const accepted = await acceptRepresentment(d, ctx, input(c.id, [file]));
    expect(accepted).toMatchObject({ caseId: c.id, version: 1, pages: 2 });
    expect(d.caseCalls).toEqual([c.id]);
    expect(caseApiCalls(from)).toEqual([
      'cases_api.case_held_by_other',
      'cases_api.set_representment_status',
    ]);
    expect(inTransaction).toEqual([false]);
    const { rows } = await t.db.query<{ status_id: number }>(
      `select status_id from cases.cases where id = $1`,
      [c.id],
    );
    expect(rows[0]!.status_id).toBe(CASE_STATUS.DocCompiling);
  });

  it('a refusal once the case is known is its DOC_VALIDATION_ERROR event, for the merchant already answered', async () => {
    const c = takeCase();
    const foreign = {
      s3_key: 'acme/representments/not-issued/x.pdf',
      filename: 'x.pdf',
      content_type: 'application/pdf',
    };
    const from = calls.length;
    const refused = acceptRepresentment(deps(), ctx, input(c.id, [foreign]));
    await expect(refused).rejects.toMatchObject({ statusCode: 400, message: M.foreignKey });
    // The merchant is the case service's answer: cases_api.cases is not read again for the event.
    expect(caseApiCalls(from)).toEqual(['cases_api.case_held_by_other']);
    expect(await validationEvents(c.id)).toEqual([{ message: M.foreignKey, merchant_id: c.merchant_id }]);

    // A route that does not report its refusals (the case builder) leaves no event.
    const quiet = takeCase();
    const silent = acceptRepresentment(
      deps(),
      ctx,
      input(quiet.id, [], { ...UPLOAD, reportRefusals: false }),
    );
    await expect(silent).rejects.toMatchObject({ statusCode: 400, message: M.noFile });
    expect(await validationEvents(quiet.id)).toEqual([]);
  });

  it('a generated document comes first; a refused transaction takes it out of the store again', async () => {
    const summary = await makePdf(1);
    const withSummary = (moveCase?: number): UploadRoute => ({
      ...UPLOAD,
      check: async () => {
        inTransaction.push(insideTransaction());
        // Another writer moves the case on while the upload is being checked.
        if (moveCase) await t.db.query(`update cases.cases set status_id = 3 where id = $1`, [moveCase]);
      },
      generate: async () => {
        inTransaction.push(insideTransaction());
        return { filename: 'case-summary.pdf', bytes: summary, pages: 1 };
      },
    });
    inTransaction.length = 0;

    const c = takeCase();
    const accepted = await acceptRepresentment(
      deps(),
      ctx,
      input(c.id, [await storedPdf(c.id, 2)], withSummary()),
    );
    expect(accepted.pages).toBe(3);
    const docs = await documentsOf(c.id);
    expect(docs.map((d) => [d.order_num, d.filename])).toEqual([
      [0, 'case-summary.pdf'],
      [1, 'evidence.pdf'],
    ]);
    expect(await store.head('acme', docs[0]!.s3_key)).toMatchObject({ size: summary.length });

    const moved = takeCase();
    const puts: string[] = [];
    const spied: ObjectStore = Object.assign(Object.create(store) as ObjectStore, {
      put: (...args: Parameters<ObjectStore['put']>) => {
        puts.push(args[1]);
        return store.put(...args);
      },
    });
    const refused = acceptRepresentment(
      { ...deps(), store: spied },
      ctx,
      input(moved.id, [await storedPdf(moved.id)], withSummary(moved.id)),
    );
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ statusCode: 409, message: M.notUploadable('changing') });
    expect(puts).toHaveLength(1);
    expect(await store.head('acme', puts[0]!)).toBeNull();
    expect(await documentsOf(moved.id)).toEqual([]);
    expect(inTransaction).toEqual([false, false, false, false, false, false]);
  });
});
