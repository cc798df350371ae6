import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureCatalogue } from '@portal/contracts';
import { startFullStack, type FullStack } from '../../support/full-stack';

/**
 * Every call of the spec's API lists (spec 1 §7, spec 2 §7, spec 3 §7; paths
 * named there, 'not shown' ones left out). '*' when the spec names no method.
 */
const SPEC_CALLS: readonly string[] = [
  // spec 1 §7
  'POST /users/whoami',
  'GET /cm/merchants/{id}',
  'GET /cm/cases/dashboard/chargebacks-mtd',
  'GET /cm/cases/reports/cases-fraud-pct',
  'GET /cm/cases',
  'GET /cm/cases/reports/mids-count',
  'GET /users/users',
  'GET /cm/cases/reports/mids-top5',
  'GET /cm/cases/dashboard/chargebacks-by-date-range',
  'POST /users/auth/artego',
  'POST /users/pass/updated',
  'GET /users/users.xlsx',
  ...[
    'countries',
    'processors',
    'rc',
    'rc-categories',
    'cycles',
    'currencies',
    'cctypes',
    'status-groups',
    'verdicts',
    'service-levels',
    'deflectors',
    'sources',
  ].map((l) => `GET /cm/gen/${l}`),
  'GET /users/users/{id}/login-history',
  'GET /users/user/{id}/email-notification',
  'POST /users/{id}/resources',
  'DELETE /users/{id}/resources/{id}',
  'POST /users/blockip',
  'DELETE /users/blockip/{id}',
  'GET /config/cfg/stack_config_be',
  'GET /config/cfg/slim',
  // spec 2 §7
  'GET /cm/cases/{id}',
  'PATCH /cm/cases/{id}/edit',
  'PUT /cm/cases/edit',
  'PATCH /cm/cases/{id}',
  'PUT /cm/cases',
  'PATCH /cm/cases/ui/status',
  'POST /cm/cases/{id}/flag',
  'PATCH /cm/cases/{id}/flag/{id}',
  'PUT /cm/cases/flag',
  'GET /cm/cases/{id}/history',
  'POST /cm/cases/{id}/ce',
  'GET /cm/cases/process/autoaccept',
  'POST /cm/cases/process/autoaccept',
  'GET /cm/cases/reports/cases-status-totals',
  'PATCH /cm/review',
  'GET /cm/review',
  'GET /cm/review/{id}',
  'PATCH /cm/cases/qc',
  'GET /cm/cases/qc',
  'GET /cm/cases/qc/{id}',
  'POST /ert/case/{id}/erts',
  'GET /docs/issuer-doc/{id}/{id}',
  'GET /docs/representment/{id}',
  'GET /docs/representment/upload-link',
  'POST /docs/representment',
  'POST /docs/representment/transport',
  'GET /docs/templates',
  'GET /docs/templates/types',
  'GET /docs/templates/upload-link',
  'POST /docs/templates',
  'DELETE /docs/merchant/{id}/template/{id}',
  'GET /docs/downloadable',
  'GET /docs/builder/upload-link',
  'POST /docs/builder/upload',
  'GET /builder/case/{id}',
  'PUT /builder/case/{id}',
  'GET /builder/gen/doctypes',
  'GET /builder/products',
  'POST /builder/products',
  'GET /builder/products/categories',
  'GET /cm/mids',
  'GET /config/cfg/cases_advanced_filters',
  'GET /cm/merchants/{id}/express-resolve',
  'POST /users/events/tracking',
  'GET /cm/cases.csv',
  'GET /cm/cases.xlsx',
  'GET /cm/svc/alerts',
  'GET /cm/svc/alerts/service-level',
  'GET /cm/svc/alerts/outcome/dropdown',
  'GET /cm/svc/alerts/descriptors/mapping',
  'POST /cm/svc/alerts/descriptors/mapping',
  'GET /cm/svc/alerts/history',
  'POST /cm/svc/alerts/outcome',
  'POST /cm/svc/alerts/complete',
  'GET /cm/svc/descriptors',
  'GET /cm/svc/alerts.xlsx',
  'GET /cm/svc/alerts.csv',
  // spec 3 §7
  'GET /cm/merchants/list',
  'GET /cm/merchants',
  'POST /cm/merchants',
  'PATCH /cm/merchants/{id}',
  'PUT /cm/merchants/{id}',
  'GET /cm/merchants/{id}/mids',
  'GET /cm/merchants/{id}/descriptors',
  'GET /cm/mids/{id}',
  'GET /cm/mids/{id}/history',
  'POST /cm/mids',
  'PATCH /cm/mids/{id}',
  'POST /cm/mids/upload',
  'GET /cm/templates/mids.csv',
  'POST /cm/mids/{id}/permissions/{id}',
  'PUT /cm/mids/permissions/{id}',
  'GET /cm/mids/permissions/{id}',
  'GET /users/users/{id}',
  'POST /users/users',
  'PATCH /users/users/{id}',
  'GET /users/roles',
  'POST /users/pass',
  'GET /users/user/{id}/site-permissions',
  'PUT /users/{id}/resources/{id}',
  'POST /users/{id}/resources/{id}',
  'GET /users/messages',
  'POST /users/messages/{id}/action',
  'GET /users/pro-service/banner',
  'POST /users/pro-service/banner/close',
  'POST /cm/onboarding',
  'GET /cm/onboarding/upload',
  'GET /cm/onboarding/files',
  'GET /cm/onboarding/{id}/records',
  'PATCH /cm/onboarding/{id}/records',
  'PATCH /cm/onboarding/{id}',
  'GET /cm/cases/updater/upload',
  'POST /cm/cases/updater',
  '* /ert/erts/upload/link',
  'POST /ert/erts/upload',
  '* /ert/erts/{id}/resolve/upload',
  'POST /ert/erts/{id}/resolve',
  '* /ert/erts/bulk/resolve/upload',
  'POST /ert/erts/bulk/resolve',
  ...[
    'cb-by-trans-month',
    'percent-chargebacks-by-trans-amount-range',
    'chargebacks-by-issuer',
    'span-between-post-trans-date',
    'chargeback-transaction-ratio-by-transaction-date-week',
    'cb-non-unique-customers',
    'cb-by-reason-code',
    'card-type',
    'verdict',
    'location-type',
    'percent-chargebacks-by-processor-by-cc-type',
    'cases-by-platform',
    'res-kpi/chargebacks',
    'res-kpi/alerts',
    'mid-health',
  ].map((r) => `GET /cm/cases/reports/${r}`),
  'POST /cm/cases/reports/reconciliation/flag/bulk',
  'POST /cm/cases/reports/reconciliation/flag/delete',
  'GET /cm/rules/subjects',
  'GET /cm/rules/operators',
  'GET /cm/mids/{id}/rules',
  'GET /cm/merchants/{id}/rules',
  'PUT /cm/mids/{id}/rules/rdr',
  'PUT /cm/merchants/{id}/rules/rdr',
];

const DOCS = ['case', 'user', 'docs', 'builder', 'gateway'] as const;
/** Parameter names differ between the spec and the routes: compare shapes. */
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{id}').replace(/\/$/, '');

let h: FullStack;
beforeAll(async () => {
  h = await startFullStack();
});
afterAll(async () => h?.close());

interface Doc {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, unknown>>;
}

describe('API documentation through the gateway', () => {
  it('documents every call of the spec in the OpenAPI documents of the services and the gateway', async () => {
    const token = await h.signIn('merchant.user');
    const calls = new Set<string>();
    for (const name of DOCS) {
      const r = await h.call('GET', `/openapi/${name}`, { token });
      expect(r.status, `${name}: ${r.body.slice(0, 200)}`).toBe(200);
      const doc = r.json() as Doc;
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.servers).toEqual([expect.objectContaining({ url: '/api' })]);
      for (const [path, item] of Object.entries(doc.paths))
        for (const method of Object.keys(item)) {
          calls.add(`${method.toUpperCase()} ${shape(path)}`);
          calls.add(`* ${shape(path)}`);
        }
    }
    const missing = SPEC_CALLS.filter((c) => {
      const [method, path] = c.split(' ') as [string, string];
      return !calls.has(`${method} ${shape(path)}`);
    });
    expect(missing).toEqual([]);
  });

  it('shows only what a browser can call: no health or internal routes of the services', async () => {
    const token = await h.signIn('merchant.user');
    const user = (await h.call('GET', '/openapi/user', { token })).json() as Doc;
    const paths = Object.keys(user.paths);
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.every((p) => p.startsWith('/users'))).toBe(true);
    expect(paths.some((p) => p.includes('/internal/'))).toBe(false);
    const kase = (await h.call('GET', '/openapi/case', { token })).json() as Doc;
    // The case service's calls, and the processors' webhooks it receives through the gateway (issue 32).
    expect(Object.keys(kase.paths).every((p) => /^\/(cm|ert|connectors)\//.test(p))).toBe(true);
    expect(Object.keys(kase.paths)).toContain('/cm/cases');
  });

  it('is for signed-in holders of the feature; unknown documents are 404', async () => {
    expect((await h.call('GET', '/openapi/case')).status).toBe(401);
    const token = await h.signIn('merchant.user');
    expect((await h.call('GET', '/openapi/nope', { token })).status).toBe(404);
    // Without the feature (a per-user deny of the page), the documents are refused.
    const target = await h.t.db.query<{ id: number }>(
      `select id from users.users where tenant = 'acme' and username = 'agent'`,
    );
    const feature = await h.t.db.query<{ id: number }>(
      `select id from users.features where alias = 'resource-api-documentation'`,
    );
    await h.t.db.query(
      `delete from users.role_features where feature_id = $1 and role_id = (select role_id from users.users where id = $2)`,
      [feature.rows[0]!.id, target.rows[0]!.id],
    );
    const agent = await h.signIn('agent');
    expect((await h.call('GET', '/openapi/case', { token: agent })).status).toBe(403);
  });
});

describe('features list (/features)', () => {
  it('answers every role with its features and site permissions, as the user service grants them', async () => {
    const token = await h.signIn('admin');
    const r = await h.call('GET', '/users/features/catalogue', { token });
    expect(r.status, r.body.slice(0, 200)).toBe(200);
    const c = r.json() as FeatureCatalogue;
    expect(c.roles.map((x) => x.name)).toEqual(expect.arrayContaining(['cb911_admin', 'merchant_user']));
    // Independently from the tables: merchant_user's features are exactly its role_features rows.
    const expected = await h.t.db.query<{ alias: string }>(
      `select f.alias from users.role_features rf join users.features f on f.id = rf.feature_id
        join users.roles r on r.id = rf.role_id where r.name = 'merchant_user' order by f.alias`,
    );
    const byId = new Map(c.features.map((f) => [f.id, f.alias]));
    const merchantUser = c.roles.find((x) => x.name === 'merchant_user')!;
    expect(merchantUser.feature_ids.map((id) => byId.get(id)).sort()).toEqual(
      expected.rows.map((x) => x.alias),
    );
    expect(merchantUser.feature_ids).not.toContain(c.features.find((f) => f.alias === 'features-list')!.id);
    expect(c.resources.find((x) => x.alias === 'USERS')).toMatchObject({ url: expect.anything() });
  });

  it('is refused to signed-out users and to roles without features-list', async () => {
    for (const username of ['merchant.admin', 'partner.admin', 'manager']) {
      const token = await h.signIn(username);
      expect((await h.call('GET', '/users/features/catalogue', { token })).status, username).toBe(403);
    }
    expect((await h.call('GET', '/users/features/catalogue')).status).toBe(401);
  });
});
