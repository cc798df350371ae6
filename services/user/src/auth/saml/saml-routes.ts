import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ErrorResponse,
  SAML_CALLBACK_PATH,
  SAML_MESSAGES,
  SamlLogoutResponse,
  SamlTokenBody,
  SamlTokenResponse,
} from '@portal/contracts';
import { badRequest, HttpError, unauthorized } from '@portal/core';
import { requirePublic, type UserServiceState } from '../../lib/context';
import { findUserById, USER_STATUS } from '../../users/repository';
import { completeSignIn } from '../flows';
import { signOut } from '../refresh';
import { acsUrl, publicOrigin, readSamlTenant } from './config';
import { ensureDemoSamlIdpKey } from './demo-idp-key';
import { federatedUser } from './federation';
import { newRequestId, SamlRejection, serviceProvider, verifyResponse } from './provider';
import { safeReturnPath } from './return-path';
import { claimAssertionId, consumeCode, consumeRequest, createCode, saveRequest } from './store';
import { checkSamlTrustAtStart, requireSamlSetup, trustOptions } from './trust';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
/** A SAMLResponse is a few KB; the gateway bounds the form at 512 KB. */
const AcsBody = Type.Object({
  SAMLResponse: Type.String({ minLength: 1, maxLength: 512 * 1024 }),
  RelayState: Type.Optional(Type.String({ maxLength: 2048 })),
});

/** Refusal codes the web's callback page turns into the messages of SAML_MESSAGES. */
const ERROR_CODES: Record<string, string> = {
  [SAML_MESSAGES.invalidResponse]: 'invalid',
  [SAML_MESSAGES.noUser]: 'no_user',
  [SAML_MESSAGES.notFederated]: 'not_federated',
  [SAML_MESSAGES.inactive]: 'inactive',
  [SAML_MESSAGES.returnPath]: 'return_path',
  [SAML_MESSAGES.badHost]: 'invalid',
  [SAML_MESSAGES.notConfigured]: 'not_configured',
};

/**
 * SAML 2.0 sign-in (issue 16; spec 1 §2.1 'SAML back-door login and logout',
 * §7 'a token endpoint exchanges a SAML code'), public through the gateway:
 *   GET  /users/auth/saml/metadata  the SP metadata of this tenant and host
 *   GET  /users/auth/saml/login     302 to the IdP with an AuthnRequest (return_to: a path of this site)
 *   POST /users/auth/saml/acs       the IdP's form post; 303 to /saml/callback?code=... (one-time, 60 s)
 *   POST /users/auth/saml/token     {code} -> the normal session (access token + refresh cookie)
 *   POST /users/auth/saml/logout    ends the session; answers where the browser goes (the IdP's logout URL)
 */
export async function samlRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { env, log } = app.deps;
  const dir = () => env.TENANT_CONFIG_DIR;
  // Outside production the demo IdP's key pair goes into DATA_DIR (the northbank demo trusts its certificate
  // by file), as the demo single sign-on keys do; production never generates it and refuses test certificates.
  if (env.NODE_ENV !== 'production') {
    const demo = ensureDemoSamlIdpKey(env.DATA_DIR);
    if (demo.created) log.info({ file: demo.certFile }, 'demo SAML identity provider key installed');
  }
  checkSamlTrustAtStart(dir(), trustOptions(env), log);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 512 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get(
    '/users/auth/saml/metadata',
    {
      schema: {
        tags: ['auth'],
        summary: 'SAML service provider metadata',
        response: { 200: Type.String(), ...errors },
      },
    },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const st = requireSamlSetup(env, ctx.tenant, request.log);
      const xml = serviceProvider(
        st.saml,
        st.certs,
        acsUrl(publicOrigin(request, st)),
      ).generateServiceProviderMetadata(null);
      return reply
        .type('application/samlmetadata+xml')
        .header('cache-control', 'public, max-age=300')
        .send(xml);
    },
  );

  app.get(
    '/users/auth/saml/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start SAML sign-in: redirect to the identity provider',
        querystring: Type.Object({ return_to: Type.Optional(Type.String({ maxLength: 2048 })) }),
        response: { 302: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const st = requireSamlSetup(env, ctx.tenant, request.log);
      const acs = acsUrl(publicOrigin(request, st));
      const returnTo = safeReturnPath(request.query.return_to);
      if (!returnTo) throw badRequest(SAML_MESSAGES.returnPath);
      const requestId = newRequestId();
      await saveRequest(app.deps.db, { tenant: ctx.tenant, requestId, acsUrl: acs, returnTo });
      const url = await serviceProvider(st.saml, st.certs, acs, requestId).getAuthorizeUrlAsync(
        returnTo,
        undefined,
        {},
      );
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    },
  );

  app.post(
    '/users/auth/saml/acs',
    {
      schema: {
        tags: ['auth'],
        summary: 'Assertion consumer service (HTTP-POST binding)',
        body: AcsBody,
        response: { 303: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      try {
        const location = await consumeAssertion(app, request, request.body);
        return reply.header('cache-control', 'no-store').redirect(location, 303);
      } catch (error) {
        // A browser (the IdP's auto-posted form) lands on the sign-in page with a readable refusal.
        const html = (request.headers.accept ?? '').includes('text/html');
        if (html && error instanceof HttpError && error.statusCode < 500) {
          const code = ERROR_CODES[error.message] ?? 'invalid';
          return reply
            .header('cache-control', 'no-store')
            .redirect(`${SAML_CALLBACK_PATH}?error=${code}`, 303);
        }
        throw error;
      }
    },
  );

  app.post(
    '/users/auth/saml/token',
    { schema: { tags: ['auth'], body: SamlTokenBody, response: { 200: SamlTokenResponse, ...errors } } },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const code = request.body.code.trim();
      if (!code) throw unauthorized(SAML_MESSAGES.codeInvalid);
      const used = await consumeCode(app.deps.db, ctx.tenant, code);
      if (!used) throw unauthorized(SAML_MESSAGES.codeInvalid);
      const user = await findUserById(app.deps.db, ctx.tenant, used.user_id);
      if (!user || !user.is_federated || user.status_id !== USER_STATUS.ACTIVE)
        throw unauthorized(SAML_MESSAGES.codeInvalid);
      const tokens = await completeSignIn(app, state, request, reply, user, 'sso');
      return { ...tokens, return_to: used.return_to };
    },
  );

  app.post(
    '/users/auth/saml/logout',
    { schema: { tags: ['auth'], response: { 200: SamlLogoutResponse, ...errors } } },
    async (request, reply) => {
      const tenant = request.ctx.tenant;
      await signOut(app, request, reply, tenant);
      return { redirect_url: readSamlTenant(dir(), tenant)?.saml.logout_url ?? null };
    },
  );
}

/** Checks a posted response and answers where the browser goes: the callback page with a one-time code. */
async function consumeAssertion(
  app: FastifyInstance,
  request: FastifyRequest,
  body: { SAMLResponse: string; RelayState?: string },
): Promise<string> {
  const ctx = requirePublic(request);
  const st = requireSamlSetup(app.deps.env, ctx.tenant, request.log);
  const acs = acsUrl(publicOrigin(request, st));
  // RelayState is not signed: it must be a path of this site, but the page comes from our own request record.
  if (body.RelayState !== undefined && !safeReturnPath(body.RelayState))
    throw badRequest(SAML_MESSAGES.returnPath);
  const { db } = app.deps;
  const refuse = (reason: string) => {
    // The reason only (never the XML, a certificate or a NameID).
    request.log.warn({ tenant: ctx.tenant, reason }, 'SAML response refused');
    return unauthorized(SAML_MESSAGES.invalidResponse);
  };
  let verified;
  try {
    verified = await verifyResponse(st.saml, st.certs, acs, body.SAMLResponse);
  } catch (error) {
    if (error instanceof SamlRejection) throw refuse(error.reason);
    throw error;
  }
  // Our request, answered once, on the host it was sent from.
  const pending = await consumeRequest(db, ctx.tenant, verified.inResponseTo);
  if (!pending) throw refuse('InResponseTo names no pending request');
  if (pending.acs_url !== acs) throw refuse('answered on another host than the request');
  if (!(await claimAssertionId(db, ctx.tenant, verified.assertionId, verified.expiresAt)))
    throw refuse('assertion replayed');
  const { user, created } = await db.transaction(async (tx) => {
    const found = await federatedUser(tx, ctx.tenant, st.saml, verified);
    return found;
  });
  if (created) request.log.info({ tenant: ctx.tenant, user_id: user.id }, 'SAML user created just in time');
  const code = await createCode(db, { tenant: ctx.tenant, userId: user.id, returnTo: pending.return_to });
  return `${SAML_CALLBACK_PATH}?code=${encodeURIComponent(code)}`;
}
