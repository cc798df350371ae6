/** Spec 3 §8 'Users' texts, exactly. */
export const USERS_TEXT = {
  loadCompanies: 'An error occurred while loading companies. Please try again later.',
  loadRoles: 'An error occurred while loading roles. Please try again later.',
  loadDomains: 'An error occurred. Please try again later.',
  saveFailed: 'An error occurred. Please try again later.',
  saved: 'You successfully updated/created the user.',
  loadSitePermissions: 'An error occurred while loading site permissions. Please try again later.',
  sitePermissionFailed: 'An error occurred updating site permission. Please try again later.',
  sitePermissionSaved: 'Site permission was successfully updated.',
  locked: 'User has been successfully locked.',
  unlocked: 'User has been successfully unlocked.',
  lockFailed: 'An error occurred locking user. Please try again later.',
  unlockFailed: 'An error occurred unlocking user. Please try again later.',
  /** Spec 3 §8 'Remove user': the failure of 'Remove All Access' (the users screen's removal of a user). */
  removeFailed: 'Error removing user.',
  resetOk: (name: string) => `Successfully reset user: ${name}`,
  resetFailed: (name: string) => `There was a problem resetting user: ${name}`,
  loadMids: 'An error occurred while loading MIDs. Please try again later.',
  midsFailed: 'A problem occurred setting mid permissions.',
  midsSaved: 'Mid permissions were successfully updated.',
  exportEmailed:
    "This may take up to 15 minutes. We will send you an email with a link to download your export when it's ready. Thank you!",
  exportFailed: 'An unknown error has occurred.',
  minChars: 'Please enter 2 or more characters',
  noResults: 'No results found',
  readOnlyHelp: 'If this option is checked, then the user can only view the records.',
  roleRequired: 'User must be assigned to a role.',
  fnameRequired: 'First name is needed.',
  lnameRequired: 'Last name is needed.',
  emailRequired: 'Email is needed.',
  emailDomain: 'Please enter an allowed email domain.',
} as const;

/** Status colours (spec 3 §2): green when active or in set-up (1, 5), otherwise red 'Inactive'. */
export function statusOf(statusId: number): { label: string; active: boolean } {
  return statusId === 1 || statusId === 5
    ? { label: statusId === 1 ? 'Active' : 'Setup', active: true }
    : { label: 'Inactive', active: false };
}

export const USER_LOCKED = 6;
export const ADMIN_ROLE_ID = 1;
