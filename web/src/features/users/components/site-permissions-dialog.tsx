import { Button, Checkbox, CloseButton, Dialog, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { UserItem } from '@portal/contracts';
import { Notice } from '../../../components/notice';
import { toaster } from '../../../components/toaster';
import { useSetSitePermission, useSitePermissions } from '../api/site-permissions';
import { USERS_TEXT } from '../lib/user-messages';
import { useFinalFocus } from '../../../components/dialog-focus';

/** Site permissions (spec 3 §2): one checkbox per page role; saved as each box changes. */
export function SitePermissionsDialog({ user, onClose }: { user: UserItem; onClose: () => void }) {
  const finalFocus = useFinalFocus();
  const perms = useSitePermissions(user.id);
  const set = useSetSitePermission();

  function toggle(resourceId: number, allowed: boolean) {
    set.mutate(
      { userId: user.id, resourceId, allowed },
      {
        onSuccess: () => toaster.create({ type: 'success', title: USERS_TEXT.sitePermissionSaved }),
        onError: (e) =>
          toaster.create({
            type: 'error',
            title: USERS_TEXT.sitePermissionFailed,
            description: e.message !== USERS_TEXT.saveFailed ? e.message : undefined,
          }),
      },
    );
  }

  return (
    <Dialog.Root
      open
      onOpenChange={(e) => !e.open && onClose()}
      size="md"
      placement="center"
      // The data grid takes focus back after a cell click: only Close, the X and Escape close it.
      closeOnInteractOutside={false}
      // Opened from the user's row menu: focus goes back to it.
      finalFocusEl={finalFocus}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="site-permissions-dialog">
            <Dialog.Header>
              <Dialog.Title>{`Site Permissions: ${user.fname} ${user.lname}`.trim()}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {perms.isLoading ? (
                <Spinner />
              ) : perms.isError ? (
                <Notice status="error" title={USERS_TEXT.loadSitePermissions} />
              ) : (
                <Stack gap="2">
                  {(perms.data ?? []).map((p) => (
                    <Checkbox.Root
                      key={p.id}
                      checked={p.isChecked}
                      disabled={set.isPending}
                      onCheckedChange={(e) => toggle(p.id, e.checked === true)}
                      data-testid="site-permission"
                      data-alias={p.alias}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                      <Checkbox.Label>
                        {p.name}{' '}
                        <Text as="span" color="gray.500" fontSize="xs">
                          {`#${p.id} ${p.alias}`}
                        </Text>
                      </Checkbox.Label>
                    </Checkbox.Root>
                  ))}
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} data-testid="site-permissions-close">
                Close
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
