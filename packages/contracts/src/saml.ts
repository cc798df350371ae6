import { Type, type Static } from '@sinclair/typebox';

/**
 * The optional `saml` block of a tenant file (config/tenants/<id>.yaml): the
 * portal as a SAML 2.0 service provider of the tenant's identity provider.
 * Validated by the gateway with the rest of the file and again by the user
 * service, which reads the same file. Certificates are public; the SP keeps
 * no private key (AuthnRequests are sent unsigned over the redirect binding).
 *
 * ```yaml
 * saml:
 *   idp_entity_id: https://idp.example.com/metadata    # Issuer of the assertions
 *   idp_sso_url: https://idp.example.com/sso            # where the AuthnRequest goes (redirect binding)
 *   idp_certs: ['-----BEGIN CERTIFICATE-----...']     # signing certificate(s), PEM; two while rotating
 *   sp_entity_id: https://portal.example.com/saml      # our entity id = the Audience required
 *   password_login: backdoor   # shown | backdoor (only with ?backdoor=1) | off (refused by the server)
 *   logout_url: https://idp.example.com/logout          # where SAML users go after sign-out (optional)
 *   want_response_signed: false                         # also require a signed Response (assertion always)
 *   match_by: username                                  # NameID (or the email attribute) matched to...
 *   jit: { role: merchant_user, merchant_id: 2 }        # create unknown federated users (optional)
 * ```
 * The ACS URL is `<scheme>://<tenant host>/api/users/auth/saml/acs` on each of
 * the tenant's domains; the SP metadata is at /api/users/auth/saml/metadata.
 */
const HttpsOrLocalUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 });
const Pem = Type.String({ pattern: '-----BEGIN CERTIFICATE-----', maxLength: 16384 });

export const SamlPasswordLogin = Type.Union([
  Type.Literal('shown'),
  Type.Literal('backdoor'),
  Type.Literal('off'),
]);
export type SamlPasswordLogin = Static<typeof SamlPasswordLogin>;

export const SamlTenantConfig = Type.Object(
  {
    idp_entity_id: Type.String({ minLength: 1, maxLength: 1024 }),
    idp_sso_url: HttpsOrLocalUrl,
    idp_certs: Type.Array(Pem, { minItems: 1, maxItems: 4 }),
    sp_entity_id: Type.String({ minLength: 1, maxLength: 1024 }),
    password_login: SamlPasswordLogin,
    logout_url: Type.Optional(HttpsOrLocalUrl),
    want_response_signed: Type.Optional(Type.Boolean()),
    /** What the NameID names: a portal username, or an email (also read from the email attribute). */
    match_by: Type.Optional(Type.Union([Type.Literal('username'), Type.Literal('email')])),
    /** Just-in-time creation of unknown users as federated users with this role and merchant. */
    jit: Type.Optional(
      Type.Object(
        {
          role: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }),
          merchant_id: Type.Integer({ minimum: 1 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** Accepted clock difference with the IdP, seconds (default 60, at most 300). */
    clock_skew_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 300 })),
  },
  { additionalProperties: false },
);
export type SamlTenantConfig = Static<typeof SamlTenantConfig>;

/** What the web app learns of it (GET /api/tenant): no certificates, no entity ids. */
export const SamlBootstrap = Type.Object({
  password_login: SamlPasswordLogin,
  logout_url: Type.Union([Type.String(), Type.Null()]),
});
export type SamlBootstrap = Static<typeof SamlBootstrap>;

/** Public SAML paths at the gateway. */
export const SAML_PATHS = {
  metadata: '/api/users/auth/saml/metadata',
  login: '/api/users/auth/saml/login',
  acs: '/api/users/auth/saml/acs',
  token: '/api/users/auth/saml/token',
  logout: '/api/users/auth/saml/logout',
} as const;
/** The web page the ACS sends the browser to with the one-time code. */
export const SAML_CALLBACK_PATH = '/saml/callback';
/** The URL flag that shows the password form on a SAML tenant (spec 1 §2.1 back-door, §4.2). */
export const SAML_BACKDOOR_PARAM = 'backdoor';

export const SamlTokenBody = Type.Object({ code: Type.String({ maxLength: 256 }) });
export const SamlTokenResponse = Type.Object({
  access_token: Type.String(),
  expires_in: Type.Integer(),
  token_type: Type.Literal('Bearer'),
  /** Where the browser goes next: a validated relative path. */
  return_to: Type.String(),
});
export type SamlTokenResponse = Static<typeof SamlTokenResponse>;
export const SamlLogoutResponse = Type.Object({ redirect_url: Type.Union([Type.String(), Type.Null()]) });
export type SamlLogoutResponse = Static<typeof SamlLogoutResponse>;

export const SAML_MESSAGES = {
  notConfigured: 'Single sign-on is not configured for this site.',
  invalidResponse: 'The single sign-on response is invalid or has expired. Please sign in again.',
  noUser: 'No account matches your single sign-on identity. Please contact your administrator.',
  notFederated: 'This account does not sign in through single sign-on. Please contact your administrator.',
  inactive: 'Your account is locked. Please contact your administrator.',
  codeInvalid: 'The single sign-on code is invalid or has expired. Please sign in again.',
  returnPath: 'The return address must be a path of this site.',
  badHost: 'Single sign-on is not available on this address.',
  passwordOff: 'Password sign-in is turned off for this site. Please sign in with SSO.',
} as const;
