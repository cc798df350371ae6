import { Checkbox, Spinner, Stack, Text } from '@chakra-ui/react';
import type { UserItem } from '@portal/contracts';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { toaster } from '../../../components/toaster';
import { useSetSitePermission, useSitePermissions } from '../api/site-permissions';
import { USERS_TEXT } from '../lib/user-messages';

/** Site permissions (spec 3 §2): one checkbox per page role; saved as each box changes. */
export function SitePermissionsDialog({ user, onClose }: { user: UserItem; onClose: () => void }) {
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
    <DialogFrame
      title={`Site Permissions: ${user.fname} ${user.lname}`.trim()}
      testId="site-permissions-dialog"
      onClose={onClose}
      // The data grid takes focus back after a cell click: only Close, the X and Escape close it.
      closeOnInteractOutside={false}
      footer={<DialogActions onCancel={onClose} cancelLabel="Close" cancelTestId="site-permissions-close" />}
    >
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
    </DialogFrame>
  );
}
