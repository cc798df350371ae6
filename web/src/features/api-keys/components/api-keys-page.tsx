import { Badge, Button, Code, Flex, Stack, Table, Text } from '@chakra-ui/react';
import type { ApiKey, ApiKeyStatus } from '@portal/contracts';
import { useCallback, useEffect, useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { GENERIC_ERROR } from '../../../lib/errors';
import { listApiKeys, revokeApiKey } from '../api/api-keys-api';
import { CreateApiKeyDialog } from './create-api-key-dialog';
import { RotateApiKeyDialog } from './rotate-api-key-dialog';

const STATUS: Record<ApiKeyStatus, { label: string; palette: string }> = {
  active: { label: 'Active', palette: 'green' },
  grace: { label: 'Rotated (grace)', palette: 'orange' },
  expired: { label: 'Expired', palette: 'gray' },
  revoked: { label: 'Revoked', palette: 'red' },
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

type Dialog = { kind: 'create' } | { kind: 'revoke' | 'rotate'; key: ApiKey } | null;

/**
 * /api-keys (issue 35.1): the merchant's API keys (name, prefix and last four,
 * scopes, creator, last use, expiry, status); create (the key shown once),
 * revoke, rotate with a grace period. Read-only admins may look only.
 */
export function ApiKeysPage() {
  const profile = useProfile();
  const canWrite = !profile.is_read_only;
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let live = true;
    listApiKeys()
      .then((r) => {
        if (!live) return;
        setKeys(r.data);
        setLoadError(null);
      })
      .catch((e: Error) => live && setLoadError(e.message || GENERIC_ERROR));
    return () => {
      live = false;
    };
  }, [version]);

  const revoke = (key: ApiKey) =>
    revokeApiKey(key.id)
      .then(() => {
        toaster.create({ type: 'success', description: `The API key ${key.name} was revoked.` });
        setDialog(null);
        bump();
      })
      .catch((e: Error) => toaster.create({ type: 'error', description: e.message || GENERIC_ERROR }));

  return (
    <Page data-testid="api-keys">
      <PageHeader
        title="API Keys"
        actions={
          canWrite &&
          !loadError && (
            <Button size="sm" onClick={() => setDialog({ kind: 'create' })}>
              Create API Key
            </Button>
          )
        }
      />
      {loadError && <Notice status="error">{loadError}</Notice>}
      {keys && keys.length === 0 && (
        <Text color="fg.muted" mb="4">
          No API keys yet. Create one to let your own systems read cases and alerts, upload evidence, read
          reports or manage webhooks through the API.
        </Text>
      )}
      {keys && keys.length > 0 && (
        <Table.ScrollArea borderWidth="1px" rounded="md">
          <Table.Root size="sm" data-testid="api-key-list">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Key</Table.ColumnHeader>
                <Table.ColumnHeader>Scopes</Table.ColumnHeader>
                <Table.ColumnHeader>Created</Table.ColumnHeader>
                <Table.ColumnHeader>Last used</Table.ColumnHeader>
                <Table.ColumnHeader>Expires</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {keys.map((k) => (
                <Table.Row key={k.id} data-testid={`api-key-${k.id}`}>
                  <Table.Cell>{k.name}</Table.Cell>
                  <Table.Cell>
                    <Code fontSize="xs">
                      {k.prefix}…{k.last_four}
                    </Code>
                  </Table.Cell>
                  <Table.Cell>
                    <Stack gap="0.5">
                      {k.scopes.map((s) => (
                        <Text key={s} fontSize="xs">
                          {s}
                        </Text>
                      ))}
                    </Stack>
                  </Table.Cell>
                  <Table.Cell>
                    <Text fontSize="xs">{when(k.created_at)}</Text>
                    <Text fontSize="xs" color="fg.muted">
                      {k.created_by?.username ?? '—'}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Text fontSize="xs">{when(k.last_used_at)}</Text>
                    {k.last_used_ip && (
                      <Text fontSize="xs" color="fg.muted">
                        {k.last_used_ip}
                      </Text>
                    )}
                  </Table.Cell>
                  <Table.Cell>
                    <Text fontSize="xs">{k.grace_until ? when(k.grace_until) : when(k.expires_at)}</Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={STATUS[k.status].palette}>{STATUS[k.status].label}</Badge>
                  </Table.Cell>
                  <Table.Cell>
                    {canWrite && (k.status === 'active' || k.status === 'grace') && (
                      <Flex gap="2" justify="flex-end">
                        <Button
                          size="xs"
                          variant="outline"
                          onClick={() => setDialog({ kind: 'rotate', key: k })}
                        >
                          Rotate
                        </Button>
                        <Button
                          size="xs"
                          variant="outline"
                          colorPalette="red"
                          onClick={() => setDialog({ kind: 'revoke', key: k })}
                        >
                          Revoke
                        </Button>
                      </Flex>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      {dialog?.kind === 'create' && <CreateApiKeyDialog onClose={() => setDialog(null)} onCreated={bump} />}
      {dialog?.kind === 'rotate' && (
        <RotateApiKeyDialog apiKey={dialog.key} onClose={() => setDialog(null)} onRotated={bump} />
      )}
      {dialog?.kind === 'revoke' && (
        <DialogFrame
          title="Revoke API key"
          testId="revoke-api-key-dialog"
          onClose={() => setDialog(null)}
          footer={
            <DialogActions
              onCancel={() => setDialog(null)}
              primary={{ label: 'Revoke', onClick: () => void revoke(dialog.key), colorPalette: 'red' }}
            />
          }
        >
          <Text>
            Revoke <strong>{dialog.key.name}</strong> ({dialog.key.prefix}…{dialog.key.last_four})? Calls made
            with it are refused within a second; this cannot be undone.
          </Text>
        </DialogFrame>
      )}
    </Page>
  );
}
