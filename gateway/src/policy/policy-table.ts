import {
  API_KEY_MANAGER_ROLES,
  PROVIDER_ROLES,
  QC_DNR_FLAG,
  REPORT_CHARTS,
  USER_ADMIN_ROLES,
  WEBHOOK_OWNER_ROLES,
  type ApiKeyScope,
  type RoleName,
} from '@portal/contracts';

/**
 * Who may call what, in one table (design §4 steps 2-6). Rules are matched in
 * order by method and path (`:x` one segment, `*` the rest); HEAD is answered
 * by the GET rule. A call not named here is refused, whatever its method:
 * default deny. Every route a service or the gateway registers has its row,
 * and every row a route (tests/integration/gateway/policy-coverage.test.ts);
 * a row without requirements is a call any signed-in user may make (the
 * services scope the data). The services' internal calls (tagged 'internal',
 * under an `internal` segment, or the gateway's own upstream calls) have no
 * row, so the gateway never forwards them.
 *
 * requirement fields: roles (any of), features (any of the profile's feature
 * aliases), resources (any of the page roles, after allow/deny), flags (every
 * tenant flag on); readOnly marks the read-only allow-list; passwordUpdate the
 * calls allowed while a password update is pending.
 */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface PolicyRule {
  methods: Method[];
  path: string;
  /** No token needed (the public auth calls); rateLimit 'auth' applies. */
  public?: boolean;
  /**
   * Public calls only: which limit applies instead of the strict sign-in per-IP one. 'session': per
   * session (refresh family) plus a high per-IP ceiling; 'signed-link': a per-IP ceiling (the signature
   * of the link or upload form is the authority).
   */
  limit?: 'session' | 'signed-link';
  roles?: readonly RoleName[];
  features?: string[];
  resources?: string[];
  flags?: string[];
  /** A per-user stack setting (tenant defaults, then merchant, then user overrides) that must be on. */
  stackSetting?: 'show_cb_auto_accept_btn' | 'show_cb_case_filter_btn';
  notFederated?: boolean;
  readOnly?: boolean;
  passwordUpdate?: boolean;
  /** Marks calls that reveal nothing for a 'Login As' audit row: every impersonated call is still audited. */
  note?: string;
  /**
   * The API key scope that opens this call to a merchant API key (issue 35.1). Calls without one are
   * refused to keys (default deny): sign-in, user administration, impersonation, key management.
   */
  apiKey?: ApiKeyScope;
}

export const POLICY: readonly PolicyRule[] = [
  // --- public identity calls (rate-limited per IP and username)
  ...['signin', 'challenge', 'forgot', 'forgot/confirm', 'artego'].map((call): PolicyRule => ({
    methods: ['POST'],
    path: `/api/users/auth/${call}`,
    public: true,
    readOnly: true,
    passwordUpdate: true,
  })),
  // SAML sign-in (issue 16): metadata and login start are GETs of the browser, the ACS is the IdP's form
  // post, the token call exchanges the ACS's one-time code; strict per-IP limit like sign-in.
  ...(['GET:metadata', 'GET:login', 'POST:acs', 'POST:token'] as const).map((m): PolicyRule => {
    const [method, call] = m.split(':') as [Method, string];
    return {
      methods: [method],
      path: `/api/users/auth/saml/${call}`,
      public: true,
      readOnly: true,
      passwordUpdate: true,
    };
  }),
  {
    methods: ['POST'],
    path: '/api/users/auth/saml/logout',
    public: true,
    limit: 'session',
    readOnly: true,
    passwordUpdate: true,
  },
  // Session calls (issue 11.2): per refresh family, so one NAT address is not one bucket for a whole office.
  ...['refresh', 'signout'].map((call): PolicyRule => ({
    methods: ['POST'],
    path: `/api/users/auth/${call}`,
    public: true,
    limit: 'session',
    readOnly: true,
    passwordUpdate: true,
  })),

  // --- signed-in basics, allowed to read-only users and during a forced password update
  { methods: ['POST'], path: '/api/users/whoami', readOnly: true, passwordUpdate: true },
  {
    methods: ['POST'],
    path: '/api/users/auth/password',
    readOnly: true,
    passwordUpdate: true,
    notFederated: true,
  },
  {
    methods: ['POST'],
    path: '/api/users/pass/updated',
    readOnly: true,
    passwordUpdate: true,
    notFederated: true,
  },
  { methods: ['POST'], path: '/api/users/events/tracking', readOnly: true },
  { methods: ['POST'], path: '/api/users/messages/:id/action', readOnly: true },
  { methods: ['POST'], path: '/api/users/pro-service/banner/close', readOnly: true },
  // API Documentation (spec 1 §2.2): the OpenAPI documents, for holders of the feature only.
  { methods: ['GET'], path: '/api/openapi/:service', features: ['resource-api-documentation'] },
  // Features page (spec 1 §2.2 /features): staff holding features-list see every role's features.
  { methods: ['GET'], path: '/api/users/features/catalogue', features: ['features-list'] },

  // --- users (spec 3: Users, Profile Settings); the user service checks the target's merchant scope
  { methods: ['GET'], path: '/api/users/users.xlsx', resources: ['USERS_EXPORT_BUTTON'] },
  { methods: ['GET'], path: '/api/users/users.csv', resources: ['USERS_EXPORT_BUTTON'] },
  // The roles the user form offers: the add/edit user page's page role (spec 3 §6).
  { methods: ['GET'], path: '/api/users/roles', resources: ['USERS'] },
  { methods: ['POST'], path: '/api/users/users', features: ['users-create'], resources: ['USERS'] },
  // One's own name and email (Profile Settings) as well as user administration: the user service
  // allows a non-administrator to change only their own record.
  { methods: ['PATCH'], path: '/api/users/users/:id', features: ['users-edit', 'profile'] },
  { methods: ['POST'], path: '/api/users/users/:id/lock', features: ['users-edit'], resources: ['USERS'] },
  { methods: ['POST'], path: '/api/users/users/:id/enable', features: ['users-edit'], resources: ['USERS'] },
  { methods: ['PUT'], path: '/api/users/users/:id/mids', features: ['users-edit'], resources: ['USERS'] },
  {
    methods: ['POST'],
    path: '/api/users/users/:id/email',
    features: ['profile', 'users-edit'],
    notFederated: true,
  },
  { methods: ['POST'], path: '/api/users/pass', features: ['users-edit'], resources: ['USERS'] },
  // Locking an IP of one's own login history is a profile action; the user service checks the account.
  { methods: ['POST'], path: '/api/users/blockip', features: ['users-edit', 'profile'] },
  { methods: ['DELETE'], path: '/api/users/blockip/:id', features: ['users-edit', 'profile'] },
  { methods: ['POST'], path: '/api/users/:id/resources', features: ['users-edit'] },
  {
    methods: ['POST', 'PUT', 'DELETE'],
    path: '/api/users/:id/resources/:resource',
    features: ['users-edit'],
  },
  {
    methods: ['PUT'],
    path: '/api/users/user/:id/email-notification/:settingId',
    features: ['profile', 'settings'],
  },
  // Webhooks (issue 19): merchant and partner admins; read-only admins may look (the user service refuses their writes too).
  {
    methods: ['GET', 'POST'],
    path: '/api/users/webhooks',
    roles: WEBHOOK_OWNER_ROLES,
    apiKey: 'webhooks:manage',
  },
  {
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    path: '/api/users/webhooks/*',
    roles: WEBHOOK_OWNER_ROLES,
    apiKey: 'webhooks:manage',
  },
  // Merchant API keys (issue 35.1): key managers only (the user service scopes the merchants); never a key itself.
  { methods: ['GET', 'POST'], path: '/api/users/api-keys', roles: API_KEY_MANAGER_ROLES },
  { methods: ['POST'], path: '/api/users/api-keys/:id/revoke', roles: API_KEY_MANAGER_ROLES },
  { methods: ['POST'], path: '/api/users/api-keys/:id/rotate', roles: API_KEY_MANAGER_ROLES },
  // Audit log (issue 19): the roles that administer users; the user service scopes the rows to the caller's subtree.
  // Its batch input (POST /users/audit/batch) is for the gateway only: no rule, so default deny.
  { methods: ['GET'], path: '/api/users/audit', roles: USER_ADMIN_ROLES },
  { methods: ['GET'], path: '/api/users/audit.csv', roles: USER_ADMIN_ROLES },
  // Deadline reminders (issue 19): the user's own time zone, a profile field.
  { methods: ['PUT'], path: '/api/users/profile/time-zone', features: ['profile', 'settings'] },
  // Saved views of the lists (issue 21): a personal setting, so read-only users may keep them too.
  { methods: ['POST'], path: '/api/users/saved-views', readOnly: true },
  { methods: ['PATCH', 'DELETE'], path: '/api/users/saved-views/:id', readOnly: true },

  // --- cases (spec 2 §7): read-only users are refused by the write rule itself
  // Chargebacks from the feeds (issue 19): the provider's admin API users; the case service checks too.
  { methods: ['POST'], path: '/api/cm/cases/import', roles: ['cb911_admin'] },
  { methods: ['PATCH'], path: '/api/cm/cases/ui/status', features: ['chargebacks', 'case-management'] },
  // QC and admin review (spec 2 §2.4, §2.5): staff screens, reads included (the case service scopes them too).
  { methods: ['GET'], path: '/api/cm/cases/qc', features: ['qc-review'] },
  { methods: ['GET'], path: '/api/cm/cases/qc/:id', features: ['qc-review'] },
  { methods: ['PATCH'], path: '/api/cm/cases/qc', features: ['qc-review'] },
  { methods: ['PATCH'], path: '/api/cm/cases/qc/dnr', features: ['qc-review'], flags: [QC_DNR_FLAG] },
  { methods: ['GET'], path: '/api/cm/review', features: ['review'] },
  { methods: ['GET'], path: '/api/cm/review/*', features: ['review'] },
  // Bulk auto-accept: only where the user's stack config shows the Bulk Close button (issue 14). The job
  // list (the panel's, read-only users included) needs the case screens' features only: the setting
  // governs the action, and jobs run before it was turned off stay readable.
  {
    methods: ['POST'],
    path: '/api/cm/cases/process/autoaccept',
    features: ['chargebacks', 'case-management'],
    stackSetting: 'show_cb_auto_accept_btn',
  },
  {
    methods: ['GET'],
    path: '/api/cm/cases/process/autoaccept',
    features: ['chargebacks', 'case-management'],
  },
  { methods: ['POST'], path: '/api/cm/cases/updater', features: ['case-updater'] },
  {
    methods: ['POST'],
    path: '/api/cm/cases/reports/reconciliation/flag/*',
    features: ['reconciliation-report'],
  },
  { methods: ['PUT'], path: '/api/cm/cases/edit', features: ['chargebacks', 'case-management'] },
  { methods: ['PUT'], path: '/api/cm/cases/flag', features: ['chargebacks', 'case-management'] },
  {
    methods: ['POST', 'PUT', 'PATCH'],
    path: '/api/cm/cases/patch',
    features: ['chargebacks', 'case-management', 'qc-review', 'review'],
  },
  { methods: ['PUT'], path: '/api/cm/cases', features: ['chargebacks', 'case-management'] },
  { methods: ['PATCH'], path: '/api/cm/cases/:id/edit', features: ['chargebacks', 'case-management'] },
  {
    methods: ['POST'],
    path: '/api/cm/cases/:id/flag',
    features: ['chargebacks', 'case-management', 'qc-review'],
  },
  {
    methods: ['PATCH'],
    path: '/api/cm/cases/:id/flag/:flagId',
    features: ['chargebacks', 'case-management', 'qc-review'],
  },
  // Add Comment (spec 2 §2.3): read-only users are refused (no readOnly mark).
  {
    methods: ['POST'],
    path: '/api/cm/cases/:id/comments',
    features: ['chargebacks', 'case-management', 'qc-review'],
  },
  {
    methods: ['POST'],
    path: '/api/cm/cases/:id/ce',
    features: ['chargebacks', 'case-management'],
    flags: ['HAS_REMEDY'],
  },
  {
    methods: ['PATCH'],
    path: '/api/cm/cases/:id',
    features: ['chargebacks', 'case-management', 'qc-review'],
  },
  { methods: ['PATCH'], path: '/api/cm/review', roles: PROVIDER_ROLES, features: ['review'] },

  // --- reports (issue 18, spec 3 §2 and §7): each report needs its menu feature; cases-status-totals
  // stays open (the chargebacks list reads it too) and reconciliation/flag/* is named in the cases section.
  ...(Object.keys(REPORT_CHARTS) as Array<keyof typeof REPORT_CHARTS>)
    .filter((chart) => chart !== 'cases-status-totals')
    .map((chart): PolicyRule => ({
      methods: ['GET'],
      path: `/api/cm/cases/reports/${chart}`,
      features: ['reports'],
      resources: ['REPORTS'],
      apiKey: 'reports:read',
    })),
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/win-rate',
    features: ['reports'],
    resources: ['REPORTS'],
    apiKey: 'reports:read',
  },
  // The money ledger (issue 33): the /reports section and its export; exchange rates for provider staff
  // (loading them: admins).
  ...['recovered-revenue', 'recovered-revenue.csv'].map((path): PolicyRule => ({
    methods: ['GET'],
    path: `/api/cm/cases/reports/${path}`,
    features: ['reports'],
    resources: ['REPORTS'],
  })),
  { methods: ['GET'], path: '/api/cm/money/rates', roles: PROVIDER_ROLES },
  { methods: ['POST'], path: '/api/cm/money/rates', roles: ['cb911_admin'] },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/res-kpi/:kind',
    features: ['resultant'],
    apiKey: 'reports:read',
  },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/mid-health',
    features: ['midhealth'],
    apiKey: 'reports:read',
  },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/mid-health.csv',
    features: ['midhealth'],
    apiKey: 'reports:read',
  },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/reconciliation',
    features: ['reconciliation-report'],
    apiKey: 'reports:read',
  },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/reconciliation.csv',
    features: ['reconciliation-report'],
    apiKey: 'reports:read',
  },
  {
    methods: ['POST'],
    path: '/api/cm/cases/reports/reconciliation/review',
    features: ['reconciliation-report'],
  },
  { methods: ['GET'], path: '/api/cm/cases/reports/mtd', features: ['mtd'], apiKey: 'reports:read' },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/alerts',
    features: ['reports-alerts'],
    apiKey: 'reports:read',
  },
  {
    methods: ['GET'],
    path: '/api/cm/cases/reports/monitoring',
    features: ['monitoring'],
    apiKey: 'reports:read',
  },

  // --- alerts
  // Ingestion from the networks' feeds (issue 19): the provider's admin API users; the case service checks too.
  { methods: ['POST'], path: '/api/cm/alerts', roles: ['cb911_admin'] },
  { methods: ['POST'], path: '/api/cm/svc/alerts/outcome', features: ['alerts', 'pre-chargebacks'] },
  { methods: ['POST'], path: '/api/cm/svc/alerts/complete', features: ['alerts', 'pre-chargebacks'] },
  {
    methods: ['POST'],
    path: '/api/cm/svc/alerts/descriptors/mapping',
    features: ['alerts', 'pre-chargebacks'],
  },
  // Auto-refund rules: the list and a new one, and its confirmation (POST .../auto-refund/:id/confirm).
  {
    methods: ['GET', 'POST'],
    path: '/api/cm/svc/alerts/auto-refund',
    features: ['alerts', 'pre-chargebacks'],
  },
  { methods: ['POST'], path: '/api/cm/svc/alerts/auto-refund/*', features: ['alerts', 'pre-chargebacks'] },
  // The alerts screens' reads (Alerts, Pre-Chargebacks, their exports, an alert's history, outcomes,
  // service level, descriptor mapping), gated like their writes; the case service scopes the rows.
  // GET /api/cm/svc/descriptors stays open below: the bulk close criteria of the case lists read it too.
  {
    methods: ['GET'],
    path: '/api/cm/svc/alerts',
    features: ['alerts', 'pre-chargebacks'],
    apiKey: 'cases:read',
  },
  { methods: ['GET'], path: '/api/cm/svc/alerts.csv', features: ['alerts', 'pre-chargebacks'] },
  { methods: ['GET'], path: '/api/cm/svc/alerts.xlsx', features: ['alerts', 'pre-chargebacks'] },
  {
    methods: ['GET'],
    path: '/api/cm/svc/alerts/*',
    features: ['alerts', 'pre-chargebacks'],
    apiKey: 'cases:read',
  },
  // The embedded alerts form's session (tenant flag ALERTS_IFRAME) for the user's merchant.
  {
    methods: ['GET'],
    path: '/api/cm/merchants/:id/express-resolve',
    features: ['alerts', 'pre-chargebacks'],
  },

  // --- merchants, MIDs, rules (spec 3 page roles)
  { methods: ['POST'], path: '/api/cm/merchants', resources: ['CREATE_MERCHANT'] },
  { methods: ['PUT'], path: '/api/cm/merchants/:id/rules/rdr', resources: ['EDIT_RDR'] },
  { methods: ['PUT'], path: '/api/cm/mids/:id/rules/rdr', resources: ['EDIT_RDR'] },
  { methods: ['PATCH', 'PUT'], path: '/api/cm/merchants/:id', resources: ['EDIT_MERCHANT'] },
  { methods: ['POST'], path: '/api/cm/mids/upload', resources: ['CREATE_MID'] },
  // The MID upload's CSV template: the Upload MIDs dialog, shown to holders of CREATE_MID.
  { methods: ['GET'], path: '/api/cm/templates/mids.csv', resources: ['CREATE_MID'] },
  // Alert Actions of the Merchant Settings MIDs grid: deflectors switched on for the selected MIDs.
  { methods: ['POST'], path: '/api/cm/mids/alert-actions', resources: ['EDIT_MID'] },
  { methods: ['POST'], path: '/api/cm/mids/:id/permissions/:userId', roles: USER_ADMIN_ROLES },
  { methods: ['PUT'], path: '/api/cm/mids/permissions/:id', roles: USER_ADMIN_ROLES },
  { methods: ['POST'], path: '/api/cm/mids', resources: ['CREATE_MID'] },
  { methods: ['PATCH'], path: '/api/cm/mids/:id', resources: ['EDIT_MID'] },
  // MID history: cb911 admin, partner admin and partner user only (spec 3 §6).
  {
    methods: ['GET'],
    path: '/api/cm/mids/:id/history',
    roles: ['cb911_admin', 'partner_admin', 'partner_user'],
  },

  // --- onboarding, ERT
  { methods: ['POST'], path: '/api/cm/onboarding', features: ['onboarding'] },
  { methods: ['PATCH'], path: '/api/cm/onboarding/*', features: ['onboarding'] },
  // Discard of an unfinalized upload (issue 29); the service refuses finalized files and read-only users.
  { methods: ['DELETE'], path: '/api/cm/onboarding/:id', features: ['onboarding'] },
  {
    methods: ['POST'],
    path: '/api/ert/case/:caseId/erts',
    features: ['ert', 'qc-review'],
    resources: ['QC_REVIEW_ADD_ERT'],
  },
  // Bulk creation of ERTs by CSV: provider staff with the ERT bulk upload feature (issue 17).
  { methods: ['POST'], path: '/api/ert/erts/upload', features: ['ert-bulk-upload'] },
  { methods: ['POST'], path: '/api/ert/erts/*', features: ['ert'] },
  // Reads of the onboarding, case updater and ERT screens (issue 17), feature-gated like their writes; the
  // case service scopes the rows. A case's ERTs: the QC review case screen.
  { methods: ['GET'], path: '/api/cm/onboarding/*', features: ['onboarding'] },
  { methods: ['GET'], path: '/api/cm/cases/updater', features: ['case-updater'] },
  { methods: ['GET'], path: '/api/cm/cases/updater/*', features: ['case-updater'] },
  { methods: ['GET'], path: '/api/ert/erts', features: ['ert'] },
  { methods: ['GET'], path: '/api/ert/erts.csv', features: ['ert'] },
  { methods: ['GET'], path: '/api/ert/erts/*', features: ['ert'] },
  { methods: ['GET'], path: '/api/ert/case/:caseId/erts', features: ['ert', 'qc-review'] },

  // --- processor connectors (issue 32): a merchant's admins and the provider's staff manage connections
  // (the case service checks the merchant is in scope); the processor's webhook is public, its signature
  // (checked by the case service against the connection's secret) the authority, the tenant the Host's.
  {
    methods: ['GET', 'POST'],
    path: '/api/cm/merchants/:id/connections',
    roles: ['merchant_admin', ...PROVIDER_ROLES],
  },
  {
    methods: ['DELETE'],
    path: '/api/cm/merchants/:id/connections/:connectionId',
    roles: ['merchant_admin', ...PROVIDER_ROLES],
  },
  {
    methods: ['PUT'],
    path: '/api/cm/merchants/:id/connections/:connectionId/webhook-secret',
    roles: ['merchant_admin', ...PROVIDER_ROLES],
  },
  {
    methods: ['POST'],
    path: '/api/connectors/stripe/:connection/events',
    public: true,
    limit: 'signed-link',
  },

  // --- win odds (issue 33): the model's evaluation and 'Retrain now', for the provider's staff; the
  // scores reach every user in the case rows, scoped like the cases.
  { methods: ['GET'], path: '/api/cm/win-odds', roles: PROVIDER_ROLES },
  { methods: ['POST'], path: '/api/cm/win-odds/train', roles: PROVIDER_ROLES },

  // --- documents, builder
  // The representment of a case: for users of a case screen; the docs service asks the case service
  // whether the case is in the caller's scope.
  // Upload form for a representment file (issue 12): case screens that upload; read-only refused by the service.
  {
    methods: ['GET'],
    path: '/api/docs/representment/upload-link',
    features: ['chargebacks', 'case-management', 'qc-review'],
    apiKey: 'evidence:write',
  },
  {
    methods: ['GET'],
    path: '/api/docs/representment/:caseId',
    features: ['chargebacks', 'case-management', 'qc-review', 'review'],
  },
  // See the evidence before it goes (issue 34): the previewed packet's PDF (upload modal, builder), the
  // compiled packet page by page (QC reviewer and case screens). The preview itself is a POST under
  // /api/docs/representment/* (below); the builder's is gated like the builder's submission.
  {
    methods: ['GET'],
    path: '/api/docs/representment/preview/:caseId/:sha256',
    features: ['chargebacks', 'case-management', 'qc-review', 'case-builder'],
  },
  {
    methods: ['GET'],
    path: '/api/docs/representment/:caseId/packet',
    features: ['chargebacks', 'case-management', 'qc-review', 'review'],
  },
  {
    methods: ['GET'],
    path: '/api/docs/representment/:caseId/packet.pdf',
    features: ['chargebacks', 'case-management', 'qc-review', 'review'],
  },
  // The case's submission to its processor (issue 32, the 'Stripe submission' panel); its draft is
  // submitted by a POST under /api/docs/representment/* (below).
  {
    methods: ['GET'],
    path: '/api/docs/representment/:caseId/processor-submission',
    features: ['chargebacks', 'case-management', 'qc-review', 'review'],
  },
  // The issuer's documents of a case (a link in the case lists' Issuer Docs column).
  {
    methods: ['GET'],
    path: '/api/docs/issuer-doc/:caseId/:docId',
    features: ['chargebacks', 'case-management', 'cm-invalid-case', 'qc-review', 'review'],
  },
  // Downloads by signed link (a new browser tab has no bearer token): the docs service checks the
  // signature, its expiry and the tenant; rate-limited per IP like the other public calls.
  { methods: ['GET'], path: '/api/docs/files/*', public: true, limit: 'signed-link' },
  // Object store (design §10): the filesystem store's stand-in for S3's presigned POST and GET. The
  // signed form or link is the authority, tied to the tenant of the Host, as S3's signature is.
  { methods: ['POST'], path: '/api/docs/objects/upload', public: true, limit: 'signed-link' },
  { methods: ['GET'], path: '/api/docs/objects/download', public: true, limit: 'signed-link' },
  {
    methods: ['POST'],
    path: '/api/docs/representment',
    features: ['chargebacks', 'case-management', 'qc-review'],
    apiKey: 'evidence:write',
  },
  {
    methods: ['POST'],
    path: '/api/docs/representment/*',
    features: ['chargebacks', 'case-management', 'qc-review'],
  },
  { methods: ['POST'], path: '/api/docs/templates', features: ['templatelib'] },
  { methods: ['GET'], path: '/api/docs/templates/upload-link', features: ['templatelib'] },
  { methods: ['DELETE'], path: '/api/docs/merchant/:id/template/:templateId', features: ['templatelib'] },
  // The case builder (issue 13): every call needs the case-builder role (a per-user grant, spec 2 §6) on
  // top of the feature, as the builder and docs services check on every call (and the case scope through
  // the case service). The builder's upload form is the authority of the upload: gated like the submission.
  {
    methods: ['GET'],
    path: '/api/docs/builder/upload-link',
    features: ['case-builder'],
    resources: ['case-builder'],
  },
  {
    methods: ['POST'],
    path: '/api/docs/builder/upload',
    features: ['case-builder'],
    resources: ['case-builder'],
  },
  {
    methods: ['POST'],
    path: '/api/docs/builder/preview',
    features: ['case-builder'],
    resources: ['case-builder'],
  },
  {
    methods: ['GET', 'POST', 'PUT'],
    path: '/api/builder/*',
    features: ['case-builder'],
    resources: ['case-builder'],
  },

  // --- reads any signed-in user may make: the services scope the data to the tenant, the user's merchant
  // subtree and MIDs. Last in the table, so that the gated rows above come first; each names its route
  // (no wildcard), so that a new route stays refused until its row says who may call it.
  // The gateway's own answers: per-user stack config, reference lookups (cached), live updates (read-only
  // users listen too).
  { methods: ['GET'], path: '/api/config/cfg/:name' },
  { methods: ['GET'], path: '/api/cm/gen/*' },
  { methods: ['GET'], path: '/api/live' },
  // Cases: the lists (chargebacks, case management, invalid chargebacks, the dashboard's expiring cases),
  // their exports, a case with its comments and history.
  { methods: ['GET'], path: '/api/cm/cases', apiKey: 'cases:read' },
  { methods: ['GET'], path: '/api/cm/cases.csv' },
  { methods: ['GET'], path: '/api/cm/cases.xlsx' },
  { methods: ['GET'], path: '/api/cm/cases/:id', apiKey: 'cases:read' },
  { methods: ['GET'], path: '/api/cm/cases/:id/comments' },
  { methods: ['GET'], path: '/api/cm/cases/:id/history', apiKey: 'cases:read' },
  { methods: ['GET'], path: '/api/cm/cases/:id/money' },
  // The dashboard (its page opens by the dashboard feature or the DASHBOARD page role, where 'Login As'
  // lands) and the chargebacks list's status totals.
  { methods: ['GET'], path: '/api/cm/cases/dashboard/chargebacks-by-date-range' },
  { methods: ['GET'], path: '/api/cm/cases/dashboard/chargebacks-mtd' },
  { methods: ['GET'], path: '/api/cm/cases/dashboard/recovered' },
  ...[
    'cases-status-totals',
    'cases-fraud-pct',
    'chargebacks-by-card-type',
    'chargebacks-by-status',
    'mids-count',
    'mids-top5',
  ].map((chart): PolicyRule => ({
    methods: ['GET'],
    path: `/api/cm/cases/reports/${chart}`,
    apiKey: 'reports:read',
  })),
  // Merchants, MIDs and their rules: pickers and filters of most screens, Merchant Settings, hierarchy.
  ...[
    '/api/cm/merchants',
    '/api/cm/merchants/list',
    '/api/cm/merchants/:id',
    '/api/cm/merchants/:id/descriptors',
    '/api/cm/merchants/:id/mids',
    '/api/cm/merchants/:id/mids.csv',
    '/api/cm/merchants/:id/mids.xlsx',
    '/api/cm/merchants/:id/rules',
    '/api/cm/mids',
    '/api/cm/mids/:id',
    '/api/cm/mids/:id/rules',
    '/api/cm/rules/operators',
    '/api/cm/rules/subjects',
  ].map((path): PolicyRule => ({ methods: ['GET'], path })),
  // A user's MID permissions (the Users page's dialog; writes need a user admin above).
  { methods: ['GET'], path: '/api/cm/mids/permissions/:userId' },
  // Descriptors: the alerts screens and the case lists' bulk close criteria.
  { methods: ['GET'], path: '/api/cm/svc/descriptors' },
  // Documents: templates (the library and the case screens' representment templates), their types, and
  // a stored file of the tenant by its location (the /download page of e-mailed exports).
  { methods: ['GET'], path: '/api/docs/templates' },
  { methods: ['GET'], path: '/api/docs/templates/types' },
  { methods: ['GET'], path: '/api/docs/downloadable' },
  // Users: the user service answers only users of the caller's subtree (oneself for Profile Settings),
  // and decides 'Login As' (design §4 step 4).
  { methods: ['GET'], path: '/api/users/users' },
  { methods: ['GET'], path: '/api/users/users/:id' },
  { methods: ['GET'], path: '/api/users/users/:id/mids' },
  { methods: ['GET'], path: '/api/users/users/:id/impersonation' },
  { methods: ['GET'], path: '/api/users/users/:id/login-history' },
  { methods: ['GET'], path: '/api/users/user/:id/site-permissions' },
  { methods: ['GET'], path: '/api/users/user/:id/email-notification' },
  // One's own: messages, the pro-service banner, account setup links, time zone, saved views.
  { methods: ['GET'], path: '/api/users/messages' },
  { methods: ['GET'], path: '/api/users/pro-service/banner' },
  { methods: ['GET'], path: '/api/users/account-setup/links' },
  { methods: ['GET'], path: '/api/users/profile/time-zone' },
  { methods: ['GET'], path: '/api/users/saved-views' },
];
