import { Button, type ButtonProps } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { opensByItself, rememberSetupDismissed, setupDismissed } from '../account-setup-rules';
import { AccountSetupDialog } from './account-setup-dialog';

/**
 * The Account Setup modal, which also opens by itself once for a new merchant's admin
 * (account-setup-rules.ts): `open` for a button or a menu item, `dialog` to render.
 */
export function useAccountSetup(): { open: () => void; dialog: ReactNode } {
  const tenant = useTenant();
  const profile = useProfile();
  const [isOpen, setOpen] = useState(() =>
    opensByItself(profile, setupDismissed(localStorage, tenant.id, profile.id)),
  );
  const close = () => {
    rememberSetupDismissed(localStorage, tenant.id, profile.id);
    setOpen(false);
  };
  return {
    open: () => setOpen(true),
    dialog: isOpen ? <AccountSetupDialog userId={profile.id} onClose={close} /> : null,
  };
}

/** The top bar's 'Account Setup' button; `onOpen` comes from useAccountSetup. */
export function AccountSetupButton({ onOpen, ...rest }: { onOpen: () => void } & ButtonProps) {
  return (
    <Button
      size="sm"
      variant="ghost"
      color="topbar.fg"
      onClick={onOpen}
      data-testid="account-setup-button"
      {...rest}
    >
      Account Setup
    </Button>
  );
}
