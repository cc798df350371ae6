import { CASE_BUILDER_ROLE, type AccountSetupLink } from '@portal/contracts';
import type { Permissions } from '../profile/profile';

/**
 * The Account Setup modal's links (spec 3 §2 'Also shared', §8, §9): the
 * setup steps a new merchant walks through, each offered only to a user who
 * can do something on its page. The spec names the routes, not who gets
 * them; ours:
 * - accountsetup (/accountsetup = Profile Settings at /settings: email,
 *   password, notifications, time zone): holders of the settings feature;
 * - mids (/mids = Merchant Settings, the MIDs grid with Add/Edit MID): users
 *   who may manage MIDs (the CREATE_MID or EDIT_MID page role) and hold the
 *   settings feature that page needs;
 * - products (/products, the products a MID sells, the case builder's
 *   catalogue): the case-builder feature and the case-builder role, which the
 *   builder service asks for on every products call;
 * - templates (/Templates = Templates Library): the templatelib feature.
 * The read-only flag does not remove a link: those users may look, and every
 * page (and the server behind it) refuses their changes itself.
 */
export function accountSetupLinks(p: Pick<Permissions, 'features' | 'resources'>): AccountSetupLink[] {
  const features = new Set(p.features.map((f) => f.alias));
  const resources = new Set(p.resources.map((r) => r.alias));
  const links: AccountSetupLink[] = [];
  if (features.has('settings'))
    links.push({
      key: 'accountsetup',
      label: 'Account Setup',
      description: 'Check your email address, set your password, notifications and time zone.',
      url: '/accountsetup',
    });
  if (features.has('settings') && (resources.has('CREATE_MID') || resources.has('EDIT_MID')))
    links.push({
      key: 'mids',
      label: 'MIDs',
      description:
        'Review your merchant IDs, their descriptors and alert services, and add the missing ones.',
      url: '/mids',
    });
  if (features.has('case-builder') && resources.has(CASE_BUILDER_ROLE))
    links.push({
      key: 'products',
      label: 'Products',
      description: 'List the products each MID sells, so that case responses describe what was bought.',
      url: '/products',
    });
  if (features.has('templatelib'))
    links.push({
      key: 'templates',
      label: 'Templates',
      description: 'Upload the document templates (policies, receipts) your responses are built from.',
      url: '/Templates',
    });
  return links;
}
