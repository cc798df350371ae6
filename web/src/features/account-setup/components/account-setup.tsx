import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { opensByItself, rememberSetupDismissed, setupDismissed } from '../account-setup-rules';
import { AccountSetupDialog } from './account-setup-dialog';

/**
 * The top bar's 'Account Setup' button and its modal, which also opens by
 * itself once for a new merchant's admin (account-setup-rules.ts).
 */
export function AccountSetup() {
  const tenant = useTenant();
  const profile = useProfile();
  const [open, setOpen] = useState(() =>
    opensByItself(profile, setupDismissed(localStorage, tenant.id, profile.id)),
  );
  const close = () => {
    rememberSetupDismissed(localStorage, tenant.id, profile.id);
    setOpen(false);
  };
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        color="topbar.fg"
        onClick={() => setOpen(true)}
        data-testid="account-setup-button"
      >
        Account Setup
      </Button>
      {open && <AccountSetupDialog userId={profile.id} onClose={close} />}
    </>
  );
}
