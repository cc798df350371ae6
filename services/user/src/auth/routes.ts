import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ChallengeBody,
  ChangePasswordBody,
  ErrorResponse,
  ForgotBody,
  ForgotConfirmBody,
  REFRESH_COOKIE_NAMES,
  REFRESH_NO_SESSION,
  SignInBody,
  SignInResponse,
  SsoExchangeBody,
  TokenResponse,
} from '@portal/contracts';
import { requirePublic, requireUser, type UserServiceState } from '../lib/context';
import { answerChallenge, completeSignIn, requireText, signIn } from './flows';
import { jwks } from './keys';
import { refresh, signOut } from './refresh';
import { changePassword, confirmForgot, forgot, passwordUpdated } from './reset';
import { AUTH_MESSAGES } from './messages';
import { refusePasswordLogin } from './saml/password-login';
import { samlRoutes } from './saml/saml-routes';
import { verifySsoToken } from './sso';

export const JWKS_PATH = '/users/.well-known/jwks.json';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };
const noContent = { 204: Type.Null(), ...errors };

/** The auth calls of design §4 (public through the gateway) and the JWKS. */
export async function authRoutes(base: FastifyInstance, state: UserServiceState) {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    JWKS_PATH,
    { schema: { tags: ['auth'], summary: 'Public keys of the access tokens' } },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return jwks(state.key);
    },
  );

  app.post(
    '/users/auth/signin',
    { schema: { tags: ['auth'], body: SignInBody, response: { 200: SignInResponse, ...errors } } },
    async (request, reply) => {
      const ctx = requirePublic(request);
      refusePasswordLogin(app.deps.env.TENANT_CONFIG_DIR, ctx.tenant);
      const username = requireText(request.body.username, AUTH_MESSAGES.usernameEmpty);
      const password = requireText(request.body.password, AUTH_MESSAGES.passwordEmpty);
      return signIn(app, state, request, reply, ctx.tenant, username, password);
    },
  );

  app.post(
    '/users/auth/challenge',
    { schema: { tags: ['auth'], body: ChallengeBody, response: { 200: TokenResponse, ...errors } } },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const session = requireText(request.body.session, AUTH_MESSAGES.challengeInvalid);
      const password = requireText(request.body.new_password, AUTH_MESSAGES.passwordEmpty);
      return answerChallenge(app, state, request, reply, ctx.tenant, session, password);
    },
  );

  app.post(
    '/users/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        response: { 200: TokenResponse, [REFRESH_NO_SESSION]: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      // No refresh cookie at all: nobody is signed in here yet, an answer rather than an error (contract
      // REFRESH_NO_SESSION). Any cookie sent, even a broken one, is judged (and cleared) by refresh().
      if (REFRESH_COOKIE_NAMES.every((name) => request.cookies[name] === undefined))
        return reply.status(REFRESH_NO_SESSION).send(null);
      return refresh(app, state, request, reply, request.ctx.tenant);
    },
  );

  app.post(
    '/users/auth/signout',
    { schema: { tags: ['auth'], response: noContent } },
    async (request, reply) => {
      await signOut(app, request, reply, request.ctx.tenant);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/auth/forgot',
    { schema: { tags: ['auth'], body: ForgotBody, response: noContent } },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const username = requireText(request.body.username, AUTH_MESSAGES.usernameEmpty);
      await forgot(app, state, request, ctx.tenant, username);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/auth/forgot/confirm',
    { schema: { tags: ['auth'], body: ForgotConfirmBody, response: noContent } },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const username = requireText(request.body.username, AUTH_MESSAGES.usernameEmpty);
      const code = requireText(request.body.code, AUTH_MESSAGES.codeEmpty);
      const password = requireText(request.body.new_password, AUTH_MESSAGES.passwordEmpty);
      await confirmForgot(app, ctx.tenant, username, code, password);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/auth/password',
    { schema: { tags: ['auth'], body: ChangePasswordBody, response: noContent } },
    async (request, reply) => {
      const ctx = requireUser(request);
      const current = requireText(request.body.current_password, AUTH_MESSAGES.passwordEmpty);
      const next = requireText(request.body.new_password, AUTH_MESSAGES.passwordEmpty);
      await changePassword(app, request, ctx, current, next);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/pass/updated',
    { schema: { tags: ['auth'], response: { 200: Type.Object({ success: Type.Boolean() }), ...errors } } },
    async (request) => {
      await passwordUpdated(app, requireUser(request));
      return { success: true };
    },
  );

  app.post(
    '/users/auth/artego',
    { schema: { tags: ['auth'], body: SsoExchangeBody, response: { 200: TokenResponse, ...errors } } },
    async (request, reply) => {
      const ctx = requirePublic(request);
      const token = requireText(request.body.token, AUTH_MESSAGES.ssoInvalid);
      const user = await verifySsoToken(app.deps.db, ctx.tenant, token);
      return completeSignIn(app, state, request, reply, user, 'sso');
    },
  );

  // SAML 2.0 (issue 16): its own scope for the IdP's form posts.
  await base.register(async (scope) => samlRoutes(scope, state));
}
