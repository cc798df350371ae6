/**
 * The first element of every query key, one per area. A query file builds its
 * key from its area's root and exports its queryOptions; a write invalidates by
 * a query's own key, a family key its query file exports, or a root here (never
 * a key typed by hand: @tanstack/query/prefer-query-options). One table, so two
 * areas never share a root by accident, and shared because an area's queries
 * may live in several features (case queries in cases, review, remedy and lib).
 */
export const queryRoots = {
  accountSetup: ['account-setup'],
  alerts: ['alerts'],
  apiDocs: ['api-docs'],
  audit: ['audit'],
  builder: ['builder'],
  bulkJobs: ['bulk-jobs'],
  caseUpdater: ['case-updater'],
  /** Cases and what hangs off them (comments, history, documents, ERTs, review, remedy, case lookups). */
  cases: ['cases'],
  dashboard: ['dashboard'],
  featureCatalogue: ['feature-catalogue'],
  /** Lookup lists outside the case screens (/cm/gen/*). */
  lookups: ['lookups'],
  /** The merchant tree and what a merchant or MID write changes (MIDs, MID history, users beside the tree). */
  merchantAdmin: ['merchant-admin'],
  /** The merchant tree's open nodes: every merchant or MID write refreshes them. */
  merchantTree: ['merchant-tree'],
  merchants: ['merchants'],
  messages: ['messages'],
  onboarding: ['onboarding'],
  profile: ['profile'],
  reports: ['reports'],
  savedViews: ['saved-views'],
  templates: ['templates'],
  users: ['users'],
  whoami: ['whoami'],
  /** The win odds model's evaluation (issue 33). */
  winOdds: ['win-odds'],
} as const;

/**
 * Figures computed from cases: every report (the /reports charts and tables, win rate, recovered revenue,
 * KPI, MTD, MID health, monitoring, ...) and the dashboard (its tiles, the recovered tile among them, and
 * its charts). A case write or a live case event marks them stale (lib/case-writes.ts); a new area of
 * such figures puts its root here, not in each mutation.
 */
export const caseFigureRoots = [queryRoots.reports, queryRoots.dashboard] as const;
