import { Box, Heading, Skeleton, Stack, Switch } from '@chakra-ui/react';
import { Notice } from '../../../components/notice';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { useNotifications, useSetNotification } from '../api/notifications';
import { PROFILE_TEXT } from '../api/profile-messages';

/** Notifications (spec 3 §2 Profile): the 4 e-mail notifications, each toggled. */
export function Notifications() {
  const me = useProfile();
  const list = useNotifications(me.id);
  const set = useSetNotification();

  function toggle(settingId: number, enabled: boolean) {
    set.mutate(
      { userId: me.id, settingId, enabled },
      {
        onSuccess: () => toaster.create({ type: 'success', title: PROFILE_TEXT.notificationSaved }),
        onError: () => toaster.create({ type: 'error', title: PROFILE_TEXT.notificationFailed }),
      },
    );
  }

  return (
    <Box bg="white" borderRadius="lg" borderWidth="1px" p={{ base: 3, md: 5 }} data-testid="notifications">
      <Heading size="md" mb="3">
        Notifications
      </Heading>
      {list.isError ? (
        <Notice status="error" title={PROFILE_TEXT.loadNotifications} />
      ) : (
        <Stack gap="3">
          {list.isLoading
            ? Array.from({ length: 4 }, (_, i) => <Skeleton key={i} h="6" />)
            : (list.data ?? []).map((n) => (
                <Switch.Root
                  key={n.id}
                  checked={n.is_enabled}
                  // The gateway refuses writes of read-only users (design §4 step 5).
                  disabled={set.isPending || me.is_read_only}
                  onCheckedChange={(e) => toggle(n.id, e.checked)}
                  colorPalette="brand"
                  data-testid="notification"
                  data-alias={n.alias}
                >
                  <Switch.HiddenInput />
                  <Switch.Control />
                  <Switch.Label>{n.name}</Switch.Label>
                </Switch.Root>
              ))}
        </Stack>
      )}
    </Box>
  );
}
