import { SAML_MESSAGES } from '@portal/contracts';
import { forbidden } from '@portal/core';
import { readSamlTenant } from './config';

/**
 * The password sign-in of a SAML tenant: 'shown' and 'backdoor' keep it
 * (the back-door only hides the form unless the URL carries ?backdoor=1, spec
 * 1 §2.1 and §4.2); 'off' refuses it here, whatever the page shows.
 */
export function refusePasswordLogin(dir: string, tenant: string): void {
  if (readSamlTenant(dir, tenant)?.saml.password_login === 'off') throw forbidden(SAML_MESSAGES.passwordOff);
}
