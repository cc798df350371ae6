import { Badge, Box, Button, Flex, Heading, Stack, Table, Text } from '@chakra-ui/react';
import type { WebhookEndpoint } from '@portal/contracts';
import { useCallback, useEffect, useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { Page, PageHeader } from '../../../components/page-header';
import { toaster } from '../../../components/toaster';
import { useProfile } from '../../../lib/auth/auth-context';
import { GENERIC_ERROR } from '../../../lib/errors';
import { deleteWebhook, listWebhooks, patchWebhook, sendTestEvent } from '../api/webhooks-api';
import { DESTINATION_LABELS } from '../lib/chat-tools';
import { AddChatDestinationDialog } from './add-chat-destination-dialog';
import { DeliveriesGrid } from './deliveries-grid';
import { RegisterWebhookDialog } from './register-webhook-dialog';

/**
 * /webhooks: the merchant's endpoints, signed ones and Slack or Teams chat destinations (add,
 * enable/disable, delete, send a test) and the chosen one's deliveries.
 */
export function WebhookEndpoints() {
  const profile = useProfile();
  const canWrite = !profile.is_read_only;
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [dialog, setDialog] = useState<'register' | 'chat' | WebhookEndpoint | null>(null);
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    let live = true;
    listWebhooks()
      .then((r) => {
        if (!live) return;
        setEndpoints(r.data);
        setLoadError(null);
        setSelected((s) => (s !== null && r.data.some((e) => e.id === s) ? s : (r.data[0]?.id ?? null)));
      })
      .catch((e: Error) => live && setLoadError(e.message || GENERIC_ERROR));
    return () => {
      live = false;
    };
  }, [version]);

  const fail = (e: Error) => toaster.create({ type: 'error', description: e.message || GENERIC_ERROR });
  const toggle = (e: WebhookEndpoint) =>
    patchWebhook(e.id, { is_active: !e.is_active })
      .then(() => {
        toaster.create({ type: 'success', description: 'The webhook endpoint was updated.' });
        bump();
      })
      .catch(fail);
  const remove = (e: WebhookEndpoint) =>
    deleteWebhook(e.id)
      .then((r) => {
        toaster.create({ type: 'success', description: r.message });
        setDialog(null);
        bump();
      })
      .catch(fail);

  const sendTest = (e: WebhookEndpoint) =>
    sendTestEvent(e.id)
      .then((r) => {
        toaster.create({ type: 'success', description: r.message });
        bump();
      })
      .catch(fail);

  const current = endpoints?.find((e) => e.id === selected) ?? null;

  return (
    <Page data-testid="webhooks">
      <PageHeader
        title="Webhooks"
        actions={
          canWrite &&
          !loadError && (
            <Flex gap="2">
              <Button size="sm" variant="outline" onClick={() => setDialog('chat')}>
                Add Chat Destination
              </Button>
              <Button size="sm" onClick={() => setDialog('register')}>
                Register Endpoint
              </Button>
            </Flex>
          )
        }
      />
      {loadError && <Notice status="error">{loadError}</Notice>}
      {endpoints && endpoints.length === 0 && (
        <Text color="fg.muted" mb="4">
          No webhook endpoints yet. Register one to receive signed case, alert, document and ERT events, or
          add a Slack or Microsoft Teams channel for new disputes and the daily deadline digest.
        </Text>
      )}
      {endpoints && endpoints.length > 0 && (
        <Table.Root size="sm" variant="outline" mb="6" data-testid="webhook-endpoints">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Destination</Table.ColumnHeader>
              <Table.ColumnHeader>URL</Table.ColumnHeader>
              <Table.ColumnHeader>Description</Table.ColumnHeader>
              <Table.ColumnHeader>Events</Table.ColumnHeader>
              <Table.ColumnHeader>Secret</Table.ColumnHeader>
              <Table.ColumnHeader>Status</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {endpoints.map((e) => (
              <Table.Row
                key={e.id}
                data-testid={`webhook-${e.id}`}
                bg={e.id === selected ? 'bg.muted' : undefined}
                cursor="pointer"
                onClick={() => setSelected(e.id)}
              >
                <Table.Cell>{DESTINATION_LABELS[e.kind]}</Table.Cell>
                <Table.Cell wordBreak="break-all">{e.url}</Table.Cell>
                <Table.Cell>{e.description}</Table.Cell>
                <Table.Cell>
                  <Stack gap="0.5">
                    {e.events.map((t) => (
                      <Text key={t} fontSize="xs">
                        {t}
                      </Text>
                    ))}
                  </Stack>
                </Table.Cell>
                <Table.Cell>{e.kind === 'signed' ? `…${e.secret_hint}` : '—'}</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={e.is_active ? 'green' : 'gray'}>
                    {e.is_active ? 'Enabled' : 'Disabled'}
                  </Badge>
                </Table.Cell>
                <Table.Cell onClick={(ev) => ev.stopPropagation()}>
                  {canWrite && (
                    <Flex gap="2" justify="flex-end">
                      <Button size="xs" variant="outline" onClick={() => void toggle(e)}>
                        {e.is_active ? 'Disable' : 'Enable'}
                      </Button>
                      <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDialog(e)}>
                        Delete
                      </Button>
                    </Flex>
                  )}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      {current && (
        <Box data-testid="webhook-deliveries">
          <Flex justify="space-between" align="center" mb="2" gap="2">
            <Heading size="sm">Deliveries to {current.url}</Heading>
            <Flex gap="2">
              {canWrite && current.is_active && (
                <Button size="xs" variant="outline" onClick={() => void sendTest(current)}>
                  {current.kind === 'signed' ? 'Send Test Event' : 'Send Test Message'}
                </Button>
              )}
              <Button size="xs" variant="outline" onClick={bump}>
                Refresh
              </Button>
            </Flex>
          </Flex>
          <DeliveriesGrid endpointId={current.id} canWrite={canWrite} version={version} onChanged={bump} />
        </Box>
      )}
      {dialog === 'register' && <RegisterWebhookDialog onClose={() => setDialog(null)} onCreated={bump} />}
      {dialog === 'chat' && (
        <AddChatDestinationDialog
          onClose={() => setDialog(null)}
          onCreated={(created, message) => {
            toaster.create({ type: 'success', description: message });
            setDialog(null);
            setSelected(created.id);
            bump();
          }}
        />
      )}
      {dialog && dialog !== 'register' && dialog !== 'chat' && (
        <DialogFrame
          title="Delete webhook endpoint"
          testId="delete-webhook-dialog"
          onClose={() => setDialog(null)}
          footer={
            <DialogActions
              onCancel={() => setDialog(null)}
              primary={{ label: 'Delete', onClick: () => void remove(dialog), colorPalette: 'red' }}
            />
          }
        >
          <Text>
            Delete the endpoint {dialog.url}? It will receive no more events; its deliveries stay in the log.
          </Text>
        </DialogFrame>
      )}
    </Page>
  );
}
