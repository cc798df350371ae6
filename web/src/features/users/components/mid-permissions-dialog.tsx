import { Badge, Box, Button, Checkbox, HStack, Input, Spinner, Stack, Text } from '@chakra-ui/react';
import type { UserItem } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { toaster } from '../../../components/toaster';
import { useActiveMids, useMidPermissions, useSaveMidPermissions } from '../api/mid-permissions';
import { useSetUserLocked } from '../api/user-actions';
import { USERS_TEXT } from '../lib/user-messages';

const TAGS_SHOWN = 4;

/**
 * MID permissions panel (spec 3 §2): a multi-select of the user's company's
 * active MIDs (status id 2). No MID selected = every MID; Clear MIDs removes
 * the restriction. 'Remove All Access' locks the user after a confirmation
 * (spec 3 §4 'Removing MID access locks the user').
 */
export function MidPermissionsDialog({ user, onClose }: { user: UserItem; onClose: () => void }) {
  const current = useMidPermissions(user.id);
  const save = useSaveMidPermissions();
  const lock = useSetUserLocked();
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  const [selected, setSelected] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const options = useActiveMids(user.merchant.id, debounced);

  useEffect(() => {
    const t = setTimeout(() => setDebounced(search.trim()), 500);
    return () => clearTimeout(t);
  }, [search]);

  // Until the person changes it, the selection is what the server holds.
  const picked = selected ?? current.data?.data.filter((m) => !m.is_excluded).map((m) => m.mid) ?? [];
  const excluded = current.data?.data.filter((m) => m.is_excluded).map((m) => m.mid) ?? [];
  const toggle = (mid: string, on: boolean) =>
    setSelected(on ? [...new Set([...picked, mid])] : picked.filter((m) => m !== mid));

  function persist(mids: string[]) {
    save.mutate(
      { userId: user.id, mids, excludeMids: excluded.filter((m) => !mids.includes(m)) },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: USERS_TEXT.midsSaved });
          onClose();
        },
        onError: (e) =>
          toaster.create({
            type: 'error',
            title: USERS_TEXT.midsFailed,
            description: e.message !== USERS_TEXT.saveFailed ? e.message : undefined,
          }),
      },
    );
  }

  function removeAllAccess() {
    lock.mutate(
      { id: user.id, locked: true },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: USERS_TEXT.locked });
          onClose();
        },
        onError: () => toaster.create({ type: 'error', title: USERS_TEXT.removeFailed }),
      },
    );
  }

  return (
    <DialogFrame
      title={`MID Permissions: ${user.fname} ${user.lname}`.trim()}
      testId="mid-permissions-dialog"
      onClose={onClose}
      // The data grid takes focus back after a cell click: only Close, the X and Escape close it.
      closeOnInteractOutside={false}
      footer={
        confirming ? (
          <DialogActions
            onCancel={() => setConfirming(false)}
            primary={{
              label: 'Remove Access',
              onClick: removeAllAccess,
              loading: lock.isPending,
              colorPalette: 'red',
              testId: 'remove-access-confirm',
            }}
          />
        ) : (
          <>
            {user.status.id === 1 && (
              <Button
                variant="ghost"
                colorPalette="red"
                onClick={() => setConfirming(true)}
                data-testid="remove-access"
              >
                Remove All Access
              </Button>
            )}
            <Button
              variant="outline"
              onClick={() => persist([])}
              disabled={save.isPending}
              data-testid="clear-mids"
            >
              Clear MIDs
            </Button>
            <Button
              colorPalette="brand"
              loading={save.isPending}
              onClick={() => persist(picked)}
              data-testid="save-mids"
            >
              Save
            </Button>
          </>
        )
      }
    >
      {current.isLoading ? (
        <Spinner />
      ) : current.isError ? (
        <Notice status="error" title={USERS_TEXT.loadMids} />
      ) : confirming ? (
        <Text data-testid="remove-access-confirm-text">
          {`Remove all MID access from ${user.fname} ${user.lname}? The user will be locked.`}
        </Text>
      ) : (
        <Stack gap="3">
          <Text fontSize="sm" color="gray.600" data-testid="mids-scope">
            {picked.length
              ? `Access restricted to ${picked.length} MID${picked.length === 1 ? '' : 's'}.`
              : 'No MIDs assigned: the user can access all MIDs.'}
          </Text>
          <HStack wrap="wrap" gap="1" data-testid="mid-tags">
            {picked.slice(0, TAGS_SHOWN).map((m) => (
              <Badge key={m} colorPalette="brand" data-testid="mid-tag">
                {m}
              </Badge>
            ))}
            {picked.length > TAGS_SHOWN && <Badge>{`+${picked.length - TAGS_SHOWN}`}</Badge>}
          </HStack>
          <Input
            size="sm"
            placeholder="Search active MIDs"
            aria-label="Search active MIDs"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="mid-search"
          />
          <Box maxH="60" overflowY="auto" borderWidth="1px" borderRadius="md" p="2">
            {options.isLoading ? (
              <Spinner size="sm" />
            ) : options.isError ? (
              <Text color="red.600">{USERS_TEXT.loadMids}</Text>
            ) : !options.data?.length ? (
              <Text color="gray.600">{USERS_TEXT.noResults}</Text>
            ) : (
              <Stack gap="1">
                {options.data.map((m) => (
                  <Checkbox.Root
                    key={m.id}
                    checked={picked.includes(m.mid)}
                    onCheckedChange={(e) => toggle(m.mid, e.checked === true)}
                    data-testid="mid-option"
                    data-mid={m.mid}
                  >
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{m.alias ? `${m.mid} (${m.alias})` : m.mid}</Checkbox.Label>
                  </Checkbox.Root>
                ))}
              </Stack>
            )}
          </Box>
        </Stack>
      )}
    </DialogFrame>
  );
}
