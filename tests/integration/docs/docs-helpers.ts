import { DEMO_PASSWORD } from '@portal/contracts';
import type { Db, Queryable } from '@portal/core';
import type { Stack } from '@portal/runner';
import { simplePdf } from '../../../services/docs/src/seed/simple-pdf';
import { callGateway } from '../../support/gateway-client';
import { rawMultipart, send } from '../storage/multipart';

/** Sign-ins and calls through the gateway for the docs tests (templates, issuer docs, downloads). */
export class DocsClient {
  private readonly tokens = new Map<string, string>();
  constructor(private readonly stack: Stack) {}

  async signIn(tenant: string, username: string) {
    const r = await callGateway(this.stack.gatewayUrl, tenant, 'POST', '/api/users/auth/signin', {
      body: { username, password: DEMO_PASSWORD },
    });
    if (r.status !== 200) throw new Error(`sign-in ${tenant}/${username}: ${r.status}`);
    this.tokens.set(`${tenant}:${username}`, r.json.access_token as string);
  }

  api(tenant: string, user: string | null, method: string, path: string, body?: unknown) {
    return callGateway(this.stack.gatewayUrl, tenant, method, path, {
      token: user ? this.tokens.get(`${tenant}:${user}`) : undefined,
      body,
    });
  }

  /** Posts a file to an upload link as the browser does (no bearer token); the status of the store's answer. */
  async postForm(
    tenant: string,
    link: { url: string; fields: Record<string, string> },
    data: Buffer,
    type: string,
  ) {
    const form = rawMultipart([
      ...Object.entries(link.fields).map(([name, value]) => ({ name, value })),
      { name: 'file', file: { data, type } },
    ]);
    const url = link.url.startsWith('http') ? link.url : `${this.stack.gatewayUrl}${link.url}`;
    const r = await send(url, {
      method: 'POST',
      headers: { host: `${tenant}.localhost`, 'content-type': form.contentType },
      body: form.body,
    });
    return r.status;
  }

  /** GET of a (gateway-relative) download link, as a new tab opens it. */
  download(tenant: string, link: string) {
    const url = link.startsWith('http') ? link : `${this.stack.gatewayUrl}${link}`;
    return send(url, { headers: { host: `${tenant}.localhost` } });
  }
}

/** A valid PDF of one page (the seed's writer) with an /Encrypt entry in its trailer: an encrypted PDF. */
export function encryptedPdf(): Buffer {
  const plain = simplePdf('Secret', [{ text: 'encrypted' }]).toString('latin1');
  const o = '0'.repeat(64);
  return Buffer.from(
    plain.replace(
      '/Root 1 0 R',
      `/Root 1 0 R /Encrypt << /Filter /Standard /V 1 /R 2 /O <${o}> /U <${o}> /P -4 >>`,
    ),
    'latin1',
  );
}

/** One statement a recording database handle sent: its text, parameters and, when it failed, the error. */
export interface DbCall {
  sql: string;
  params: readonly unknown[];
  error?: string;
}

/**
 * The database handle of a stack that notes every statement (in and out of
 * transactions) in `calls`: a test can see which values reached SQL and which
 * statements failed, whatever the log level.
 */
export function recordingDb(db: Db, calls: DbCall[]): Db {
  const recorded = (target: Queryable): Queryable['query'] =>
    async function query<R>(sql: string, params: readonly unknown[] = []) {
      const call: DbCall = { sql, params };
      calls.push(call);
      try {
        return await target.query<R>(sql, params);
      } catch (error) {
        call.error = error instanceof Error ? error.message : String(error);
        throw error;
      }
    };
  return {
    kind: db.kind,
    query: recorded(db),
    transaction: (fn) => db.transaction((tx) => fn({ query: recorded(tx) })),
    stream: (sql, params, batchSize) => {
      calls.push({ sql, params });
      return db.stream(sql, params, batchSize);
    },
    close: () => db.close(),
  };
}
