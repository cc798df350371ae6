import createClient, { type Client } from 'openapi-fetch';
import type { paths as BuilderPaths } from './generated/builder';
import type { paths as CasePaths } from './generated/case';
import type { paths as DocsPaths } from './generated/docs';
import type { paths as GatewayPaths } from './generated/gateway';
import type { paths as UserPaths } from './generated/user';

export type { BuilderPaths, CasePaths, DocsPaths, GatewayPaths, UserPaths };

export interface PortalClientOptions {
  /** The portal's address, e.g. `https://acme.portal.example` (the tenant is the host). */
  baseUrl: string;
  /** A merchant API key (`cbp_live_...`, API Keys page) or a user's access token. */
  apiKey: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** One typed client per API document, all under `${baseUrl}/api` with the key as the bearer. */
export interface PortalClient {
  cases: Client<CasePaths>;
  users: Client<UserPaths>;
  docs: Client<DocsPaths>;
  builder: Client<BuilderPaths>;
  gateway: Client<GatewayPaths>;
  /** Posts a file to an upload form (GET /docs/representment/upload-link answers one); the stored key. */
  uploadToForm(
    form: { url: string; fields: Record<string, string> },
    file: Blob,
    filename: string,
  ): Promise<string>;
}

export function createPortalClient(options: PortalClientOptions): PortalClient {
  const baseUrl = `${options.baseUrl.replace(/\/+$/, '')}/api`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const common = {
    baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    fetch: fetchImpl,
  };
  return {
    cases: createClient<CasePaths>(common),
    users: createClient<UserPaths>(common),
    docs: createClient<DocsPaths>(common),
    builder: createClient<BuilderPaths>(common),
    gateway: createClient<GatewayPaths>(common),
    async uploadToForm(form, file, filename) {
      // The form's signature is its authority (as S3's presigned POST): no bearer on this call.
      const body = new FormData();
      for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
      body.append('file', file, filename);
      const url = new URL(form.url, `${options.baseUrl.replace(/\/+$/, '')}/`);
      const answer = await fetchImpl(url, { method: 'POST', body });
      if (!answer.ok) throw new Error(`upload refused: ${answer.status} ${await answer.text()}`);
      const key = form.fields.key;
      if (!key) throw new Error('the upload form names no key');
      return key;
    },
  };
}
