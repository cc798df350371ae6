import { Type, type Static } from '@sinclair/typebox';
import { type BannerState, type MessageActionBody, type PortalMessage } from './users';

/**
 * In-app messages, the pro-service banner and the Account Setup modal
 * (spec 3 §2 Messages, §7). The schemas of the user service's calls live in
 * users.ts; these are their types and the modal's call.
 */
export type PortalMessageData = Static<typeof PortalMessage>;
export type MessageActionName = Static<typeof MessageActionBody>['action'];
export type ProServiceBanner = Static<typeof BannerState>;

/** GET /users/account-setup/links: the setup steps the signed-in user may open. */
export const AccountSetupLink = Type.Object({
  key: Type.Union([
    Type.Literal('accountsetup'),
    Type.Literal('mids'),
    Type.Literal('products'),
    Type.Literal('templates'),
  ]),
  label: Type.String(),
  description: Type.String(),
  /** A portal route. */
  url: Type.String(),
});
export type AccountSetupLink = Static<typeof AccountSetupLink>;
export const AccountSetupLinks = Type.Object({ data: Type.Array(AccountSetupLink) });
export type AccountSetupLinks = Static<typeof AccountSetupLinks>;

export const ACCOUNT_SETUP_MESSAGES = {
  loadFailed: 'Sorry, there was an issue fetching account setup links.',
} as const;
/** The modal asks for its links this long after it opens (spec 3 §9). */
export const ACCOUNT_SETUP_DELAY_MS = 1000;
