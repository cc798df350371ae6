import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoMerchantId, demoTenant, DOCS_MESSAGES } from '@portal/contracts';
import { resolveDocsLinkSecret, signFileLink } from '../../../services/docs/src/files/signed-links';
import { startStack, type Stack } from '@portal/runner';
import { callGateway } from '../../support/gateway-client';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * The representment document (spec 2 §7 'Documents') through the gateway:
 * the seeded demo documents, scope by the case service, signed download links
 * (expiry, tampering, tenant), archived documents and the policy.
 */
let t: TestEnv;
let stack: Stack;
const tokens = new Map<string, string>();
const ACME = demoTenant('acme');

const api = (tenant: string, user: string | null, method: string, path: string, body?: unknown) =>
  callGateway(stack.gatewayUrl, tenant, method, path, {
    token: user ? tokens.get(`${tenant}:${user}`) : undefined,
    body,
  });

/** A download as the browser makes it: no bearer token, raw bytes. */
function download(tenant: string, link: string) {
  const url = new URL(stack.gatewayUrl);
  return new Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: link,
          method: 'GET',
          headers: { host: `${tenant}.localhost` },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}
const messageOf = (r: { body: Buffer }) =>
  (JSON.parse(r.body.toString('utf8')) as { message: string }).message;

interface DocRow {
  id: number;
  case_id: number;
  file_key: string;
  case_comments: string | null;
  size: number;
  merchant_id: number;
}
async function doc(where: string, params: unknown[] = []): Promise<DocRow> {
  const { rows } = await t.db.query<DocRow>(
    `select r.id, r.case_id, r.file_key, r.case_comments, r.size, r.merchant_id from docs.representments r
     where ${where} order by r.case_id limit 1`,
    params,
  );
  if (!rows[0]) throw new Error(`no representment where ${where}`);
  return { ...rows[0], id: Number(rows[0].id), case_id: Number(rows[0].case_id), size: Number(rows[0].size) };
}

beforeAll(async () => {
  t = await createTestEnv();
  stack = await startStack(t.deps, { gatewayPort: 0, gatewayHost: '127.0.0.1' });
  const users: Array<[string, string]> = [
    ['acme', 'manager'],
    ['acme', 'merchant.admin'],
    ['acme', 'partner.user'],
    ['northbank', 'manager'],
  ];
  for (const [tenant, username] of users) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    expect(r.status).toBe(200);
    tokens.set(`${tenant}:${username}`, r.json.access_token as string);
  }
});
afterAll(async () => {
  await stack?.close();
  await t?.close();
});

describe('demo representments (seed)', () => {
  it('has one per case with a document, a stored PDF for each live one and none for archived ones', async () => {
    const { rows } = await t.db.query<{
      tenant_id: string;
      cases: number;
      docs: number;
      live: number;
      files: number;
    }>(
      `select c.tenant_id, count(*)::int as cases, count(r.id)::int as docs,
         count(*) filter (where not r.is_archived)::int as live, count(o.key)::int as files
       from cases.cases c
       left join docs.representments r on r.case_id = c.id
       left join docs.objects o on o.key = r.file_key and o.tenant_id = r.tenant_id
       where c.status_id in (3, 6, 7, 8, 9, 10) group by c.tenant_id order by c.tenant_id`,
    );
    expect(rows.map((r) => r.tenant_id)).toEqual(['acme', 'northbank']);
    for (const r of rows) {
      expect(r.docs).toBe(r.cases);
      expect(r.files).toBe(r.live);
      expect(r.live).toBeGreaterThan(100);
      expect(r.live).toBeLessThan(r.docs);
    }
    const wrongSize = await t.db.query(
      `select 1 from docs.representments r join docs.objects o on o.key = r.file_key where o.size <> r.size
         or octet_length(o.content) <> o.size`,
    );
    expect(wrongSize.rows).toHaveLength(0);
    // Documents exist only for cases at or past upload.
    const strays = await t.db.query(
      `select 1 from docs.representments r join cases.cases c on c.id = r.case_id where c.status_id not in (3, 6, 7, 8, 9, 10)`,
    );
    expect(strays.rows).toHaveLength(0);
  });
});

describe('GET /docs/representment/{caseId} and the signed download', () => {
  it('answers a short-lived link and the case comments; the link serves the PDF without a token', async () => {
    const d = await doc(`r.tenant_id = 'acme' and not r.is_archived and r.case_comments is not null`);
    const r = await api('acme', 'manager', 'GET', `/api/docs/representment/${d.case_id}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      case_comments: d.case_comments,
      content_type: 'application/pdf',
      size: d.size,
    });
    const link = r.json.link as string;
    expect(link).toMatch(/^\/api\/docs\/files\/representments\/acme\/\d+\/[^?]+\.pdf\?exp=\d+&sig=[\w-]+$/);
    const ttl = Date.parse(r.json.expires_at as string) - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(300_000);

    const file = await download('acme', link);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toContain('attachment; filename="Representment-');
    expect(file.headers['content-security-policy']).toContain("default-src 'none'; sandbox");
    expect(file.body.length).toBe(d.size);
    expect(file.body.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(file.body.toString('latin1')).toContain(`Case ${d.case_id}`.replace('Case', 'CB ID:'));
  });

  it('scopes by the case service: out of a merchant user`s subtree or another tenant is 404', async () => {
    const own = await doc(`r.tenant_id = 'acme' and not r.is_archived and r.merchant_id = $1`, [
      demoMerchantId(ACME, 'merchantA1'),
    ]);
    const other = await doc(`r.tenant_id = 'acme' and not r.is_archived and r.merchant_id <> $1`, [
      demoMerchantId(ACME, 'merchantA1'),
    ]);
    expect(
      (await api('acme', 'merchant.admin', 'GET', `/api/docs/representment/${own.case_id}`)).status,
    ).toBe(200);
    const out = await api('acme', 'merchant.admin', 'GET', `/api/docs/representment/${other.case_id}`);
    expect(out.status).toBe(404);
    expect(out.json.link).toBeUndefined();
    expect((await api('northbank', 'manager', 'GET', `/api/docs/representment/${own.case_id}`)).status).toBe(
      404,
    );
    // A partner user sees the subtree of partner A (merchant A1 is in it).
    expect((await api('acme', 'partner.user', 'GET', `/api/docs/representment/${own.case_id}`)).status).toBe(
      200,
    );
  });

  it('refuses an expired, tampered or foreign-tenant link', async () => {
    const d = await doc(`r.tenant_id = 'acme' and not r.is_archived`);
    const secret = resolveDocsLinkSecret(t.env);
    const expired = signFileLink(secret, 'acme', d.file_key, Date.now() - 3_600_000);
    const late = await download('acme', expired.link);
    expect(late.status).toBe(403);
    expect(messageOf(late)).toBe(DOCS_MESSAGES.linkExpired);

    const { link } = signFileLink(secret, 'acme', d.file_key);
    expect((await download('acme', link)).status).toBe(200);
    const exp = Number(/exp=(\d+)/.exec(link)![1]);
    const longer = link.replace(`exp=${exp}`, `exp=${exp + 86_400}`);
    const tampered = [
      longer,
      link.replace(/sig=([\w-])/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`),
      link.replace(/\/(\d+)\//, (_m, id: string) => `/${Number(id) + 1}/`),
      // A link signed with another secret.
      signFileLink('another-secret-another-secret-another', 'acme', d.file_key).link,
    ];
    for (const bad of tampered) {
      const r = await download('acme', bad);
      expect(r.status, bad).toBe(403);
      expect(messageOf(r)).toBe(DOCS_MESSAGES.linkInvalid);
    }
    // The signature covers the tenant: acme's link on northbank's host is refused.
    expect((await download('northbank', link)).status).toBe(403);
    // Malformed query or key: 400, never 5xx.
    expect((await download('acme', link.replace(/&sig=.*/, ''))).status).toBe(400);
    expect((await download('acme', '/api/docs/files/a%20b?exp=1&sig=aaaaaaaaaaaaaaaaaaaa')).status).toBe(400);
  });

  it('answers the spec`s archived text for archived documents, also on a link issued before archiving', async () => {
    const archived = await doc(`r.tenant_id = 'acme' and r.is_archived`);
    const r = await api('acme', 'manager', 'GET', `/api/docs/representment/${archived.case_id}`);
    expect(r.status).toBe(410);
    expect(r.json.message).toBe(DOCS_MESSAGES.archived);

    const live = await doc(`r.tenant_id = 'acme' and not r.is_archived and r.case_id <> $1`, [
      archived.case_id,
    ]);
    const before = await api('acme', 'manager', 'GET', `/api/docs/representment/${live.case_id}`);
    expect(before.status).toBe(200);
    await t.db.query(`update docs.representments set is_archived = true, archived_at = now() where id = $1`, [
      live.id,
    ]);
    await t.db.query(`delete from docs.objects where key = $1`, [live.file_key]);
    const file = await download('acme', before.json.link as string);
    expect(file.status).toBe(410);
    expect(messageOf(file)).toBe(DOCS_MESSAGES.archived);
    expect((await api('acme', 'manager', 'GET', `/api/docs/representment/${live.case_id}`)).status).toBe(410);
  });

  it('answers 404 for a case without a document and 400 for a bad id', async () => {
    const { rows } = await t.db.query<{ id: number }>(
      `select id from cases.cases where tenant_id = 'acme' and status_id = 1 order by id limit 1`,
    );
    const none = await api('acme', 'manager', 'GET', `/api/docs/representment/${rows[0]!.id}`);
    expect(none.status).toBe(404);
    expect(none.json.message).toBe('No representment document was found for this case.');
    expect((await api('acme', 'manager', 'GET', '/api/docs/representment/999999999')).status).toBe(404);
    expect((await api('acme', 'manager', 'GET', '/api/docs/representment/abc')).status).toBe(400);
  });

  it('needs a signed-in user for the link, refuses writes to files and direct calls to the service', async () => {
    const d = await doc(`r.tenant_id = 'acme' and not r.is_archived`);
    expect((await api('acme', null, 'GET', `/api/docs/representment/${d.case_id}`)).status).toBe(401);
    expect((await api('acme', 'manager', 'POST', `/api/docs/files/${d.file_key}`, {})).status).toBe(403);
    expect((await api('acme', 'manager', 'DELETE', `/api/docs/files/${d.file_key}`)).status).toBe(403);
    const direct = await fetch(`${stack.serviceUrls.docs}/docs/representment/${d.case_id}`);
    expect(direct.status).toBe(401);
  });
});
