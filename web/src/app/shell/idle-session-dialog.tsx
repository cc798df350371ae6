import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { useAuth } from '../../lib/auth/auth-context';
import { formatCountdown, idleConfigFromSession } from '../../lib/idle-session';
import { useTenant } from '../../lib/tenant-config';
import { useIdleSession } from '../../lib/use-idle-session';

/** Spec 2.7: 'Oh No!' with a countdown; extend the session or sign out. */
export function IdleSessionDialog() {
  const tenant = useTenant();
  const { signOut, refreshToken } = useAuth();
  const cfg = useMemo(() => idleConfigFromSession(tenant.session), [tenant.session]);
  const handlers = useMemo(
    () => ({ onExpire: () => void signOut(), onRefresh: () => void refreshToken() }),
    [signOut, refreshToken],
  );
  const { phase, extend } = useIdleSession(cfg, handlers);
  const open = phase.phase === 'warning';
  return (
    <Dialog.Root
      open={open}
      role="alertdialog"
      // A click beside it could be anything; Escape is a person at the keyboard: they stay signed in.
      closeOnInteractOutside={false}
      onEscapeKeyDown={extend}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="idle-dialog">
            <Dialog.Header>
              <Dialog.Title>Oh No!</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>You have been idle for a while. For your security you will be signed out in</Text>
              <Text fontSize="3xl" fontWeight="bold" textAlign="center" my="3" data-testid="idle-countdown">
                {phase.phase === 'warning' ? formatCountdown(phase.remainingMs) : '0:00'}
              </Text>
              <Text>Do you want to stay signed in?</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => void signOut()}>
                Sign Out
              </Button>
              <Button colorPalette="brand" onClick={extend}>
                Stay Signed In
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
