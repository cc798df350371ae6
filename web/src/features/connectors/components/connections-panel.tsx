import { Badge, Box, Button, Code, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { isProviderStaff, type ConnectionView } from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { TextField } from '../../../components/text-field';
import { useProfile } from '../../../lib/auth/auth-context';
import { serverMessage } from '../../../lib/errors';
import { useDisconnectAccount } from '../api/disconnect-account';
import { useConnections } from '../api/get-connections';
import { useSetWebhookSecret } from '../api/set-webhook-secret';
import { ConnectStripeDialog } from './connect-stripe-dialog';

const BACKFILL: Record<string, string> = {
  queued: 'Import of the last 120 days waiting to start',
  running: 'Importing the last 120 days',
  done: 'Last 120 days imported',
  failed: 'Import failed',
};

function WebhookSecretForm({ merchantId, connectionId }: { merchantId: number; connectionId: string }) {
  const [secret, setSecret] = useState('');
  const save = useSetWebhookSecret(merchantId);
  return (
    <Stack gap="2">
      <TextField
        label="Webhook signing secret"
        name={`webhook_secret_${connectionId}`}
        type="password"
        autoComplete="off"
        value={secret}
        onChange={setSecret}
        error={save.error ? serverMessage((save.error as { body?: unknown }).body) : null}
      />
      <Button
        size="sm"
        alignSelf="start"
        onClick={() => save.mutate({ connectionId, secret: secret.trim() })}
        disabled={!secret.trim().startsWith('whsec_')}
        loading={save.isPending}
      >
        Save signing secret
      </Button>
    </Stack>
  );
}

function ConnectionCard({ c, writable }: { c: ConnectionView; writable: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const disconnect = useDisconnectAccount(c.merchant_id);
  const url = `${window.location.origin}${c.webhook_path}`;
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" data-testid="connection-card" data-connection={c.id}>
      <Stack gap="2">
        <HStack justify="space-between" wrap="wrap">
          <HStack>
            <Badge colorPalette="purple">Stripe</Badge>
            <Text fontWeight="semibold">{c.account_name ?? c.account_id}</Text>
            <Text color="fg.muted" fontSize="sm">
              key ····{c.api_key_last4}
            </Text>
          </HStack>
          {writable && (
            <Button size="xs" variant="outline" colorPalette="red" onClick={() => setConfirming(true)}>
              Disconnect
            </Button>
          )}
        </HStack>
        <Text fontSize="sm">MIDs: {c.mids.map((m) => m.mid).join(', ')}</Text>
        <Text fontSize="sm">
          Webhook endpoint (events <Code>charge.dispute.*</Code>):{' '}
          <Code data-testid="connection-webhook-url">{url}</Code>
        </Text>
        {c.backfill && (
          <Text fontSize="sm" data-testid="connection-backfill" data-status={c.backfill.status}>
            {BACKFILL[c.backfill.status] ?? c.backfill.status}
            {c.backfill.message ? `: ${c.backfill.message}` : ''}
          </Text>
        )}
        <Text fontSize="sm" color="fg.muted">
          {c.last_event_at
            ? `Last event from Stripe: ${new Date(c.last_event_at).toLocaleString()}`
            : 'No event from Stripe yet.'}
        </Text>
        {!c.has_webhook_secret &&
          (writable ? (
            <WebhookSecretForm merchantId={c.merchant_id} connectionId={c.id} />
          ) : (
            <Notice status="warning">
              Stripe’s events are refused until the webhook signing secret is added.
            </Notice>
          ))}
      </Stack>
      {confirming && (
        <DialogFrame
          title="Disconnect this Stripe account?"
          testId="disconnect-dialog"
          role="alertdialog"
          onClose={() => setConfirming(false)}
          footer={
            <DialogActions
              onCancel={() => setConfirming(false)}
              primary={{
                label: 'Disconnect',
                colorPalette: 'red',
                loading: disconnect.isPending,
                onClick: () => disconnect.mutate(c.id, { onSuccess: () => setConfirming(false) }),
              }}
            />
          }
        >
          <Text>
            Its keys are deleted and Stripe’s events are refused from now on. The cases it brought in stay;
            new evidence for them goes to the card network instead of Stripe.
          </Text>
        </DialogFrame>
      )}
    </Box>
  );
}

/**
 * Processor connections of the merchant on its settings screen (issue 32): merchant administrators and
 * the provider's staff; read-only users see them and change nothing. The server decides either way.
 */
export function ConnectionsPanel({ merchantId }: { merchantId: number }) {
  const profile = useProfile();
  const [connecting, setConnecting] = useState(false);
  // The server's rule (merchant administrators and provider staff): other roles see no panel and ask nothing.
  const roles = [profile.role, ...profile.roles];
  const allowed = isProviderStaff(roles) || roles.includes('merchant_admin');
  const connections = useConnections(merchantId, allowed);
  if (!allowed) return null;
  const writable = !profile.is_read_only;
  return (
    <Box
      bg="white"
      borderRadius="lg"
      borderWidth="1px"
      p={{ base: 3, md: 4 }}
      data-testid="connections-panel"
    >
      <HStack justify="space-between" mb="3">
        <Heading size="md">Processor connections</Heading>
        {writable && (
          <Button
            size="sm"
            colorPalette="brand"
            onClick={() => setConnecting(true)}
            data-testid="connect-stripe"
          >
            Connect Stripe
          </Button>
        )}
      </HStack>
      {connections.isError && (
        <Notice status="error">{serverMessage((connections.error as { body?: unknown }).body)}</Notice>
      )}
      <Stack gap="3">
        {connections.data?.data.map((c) => (
          <ConnectionCard key={c.id} c={c} writable={writable} />
        ))}
        {connections.data?.data.length === 0 && (
          <Text color="fg.muted">
            No processor connected. Connect Stripe to receive its disputes as cases and send evidence back.
          </Text>
        )}
      </Stack>
      {connecting && <ConnectStripeDialog merchantId={merchantId} onClose={() => setConnecting(false)} />}
    </Box>
  );
}
