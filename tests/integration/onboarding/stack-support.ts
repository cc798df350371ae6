import { createServer } from 'node:net';
import { DEMO_PASSWORD } from '@portal/contracts';
import { startStack, type Stack } from '@portal/runner';
import { callGateway, type GatewayAnswer } from '../../support/gateway-client';
import { postForm, type UploadLink } from '../../support/representment-upload';
import { createTestEnv, type TestEnv } from '../../support/test-env';

/**
 * A full stack with an in-process job worker for the onboarding, case
 * updater and ERT tests. The worker is told the user service's real address
 * (the finalize job creates main admin users through it).
 */
export interface Harness {
  t: TestEnv;
  stack: Stack;
  call(user: string, method: string, path: string, body?: unknown, tenant?: string): Promise<GatewayAnswer>;
  /** Upload link from `linkPath`, then the form post of `csv`; answers the stored key. */
  upload(
    user: string,
    linkPath: string,
    csv: string | Buffer,
    filename?: string,
    tenant?: string,
  ): Promise<string>;
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export async function startHarness(users: Array<[tenant: string, username: string]>): Promise<Harness> {
  const t = await createTestEnv();
  const userPort = await freePort();
  const stack = await startStack(t.deps, {
    gatewayPort: 0,
    gatewayHost: '127.0.0.1',
    servicePorts: { user: userPort },
    worker: {
      env: { ...t.deps.env, USER_SERVICE_URL: `http://127.0.0.1:${userPort}` },
      pollingIntervalSeconds: 0.5,
    },
  });
  const tokens = new Map<string, string>();
  for (const [tenant, username] of users) {
    const r = await callGateway(stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    if (r.status !== 200) throw new Error(`${username} could not sign in: ${r.status}`);
    tokens.set(`${tenant}/${username}`, r.json.access_token as string);
  }
  const call: Harness['call'] = (user, method, path, body, tenant = 'acme') =>
    callGateway(stack.gatewayUrl, tenant, method, path, { token: tokens.get(`${tenant}/${user}`), body });
  return {
    t,
    stack,
    call,
    async upload(user, linkPath, csv, filename = 'upload.csv', tenant = 'acme') {
      const sep = linkPath.includes('?') ? '&' : '?';
      const link = await call(
        user,
        'GET',
        `${linkPath}${sep}filename=${encodeURIComponent(filename)}`,
        undefined,
        tenant,
      );
      if (link.status !== 200) throw new Error(`upload link ${link.status}: ${JSON.stringify(link.json)}`);
      const form = link.json as unknown as UploadLink;
      const bytes = typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv;
      const posted = await postForm(stack.gatewayUrl, tenant, form, bytes, filename, 'text/csv');
      if (posted.status >= 300) throw new Error(`form post ${posted.status}: ${posted.body}`);
      return form.fields.key!;
    },
    async close() {
      await stack.close();
      await t.close();
    },
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
