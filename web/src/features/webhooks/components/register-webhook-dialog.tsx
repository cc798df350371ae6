import { Button, Checkbox, Code, Field, Fieldset, Input, Stack, Text } from '@chakra-ui/react';
import { WEBHOOK_EVENT_TYPES, type WebhookCreated, type WebhookEventType } from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { GENERIC_ERROR } from '../../../lib/errors';
import { createWebhook } from '../api/webhooks-api';
import { SecretPanel } from './secret-panel';

/**
 * Register an endpoint: URL, events, description. The answer carries the
 * signing secret, shown here once (the server never returns it again).
 */
export function RegisterWebhookDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: () => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const valid = /^https?:\/\/\S+$/i.test(url.trim()) && events.length > 0;

  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const answer = await createWebhook({
        url: url.trim(),
        events,
        description: description.trim() || undefined,
      });
      setCreated(answer);
      onCreated();
    } catch (e) {
      setError((e as Error).message || GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  }

  if (created)
    return (
      <DialogFrame
        title="Webhook endpoint registered"
        testId="webhook-secret-dialog"
        onClose={onClose}
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <Stack gap="3">
          <Text>
            Endpoint <Code>{created.url}</Code>
          </Text>
          <SecretPanel secret={created.secret} />
        </Stack>
      </DialogFrame>
    );

  return (
    <DialogFrame
      title="Register a webhook endpoint"
      testId="register-webhook-dialog"
      onClose={onClose}
      size="lg"
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{
            label: 'Register',
            onClick: () => void submit(),
            disabled: !valid || busy,
            loading: busy,
          }}
        />
      }
    >
      <Stack gap="4">
        <Field.Root required>
          <Field.Label>Endpoint URL</Field.Label>
          <Input
            name="url"
            placeholder="https://example.com/webhooks/chargebacks"
            value={url}
            maxLength={2000}
            onChange={(e) => setUrl(e.target.value)}
          />
          <Field.HelperText>
            Use https: plain http is accepted only in development or on networks the operator allows.
          </Field.HelperText>
        </Field.Root>
        <Field.Root>
          <Field.Label>Description</Field.Label>
          <Input
            name="description"
            value={description}
            maxLength={200}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field.Root>
        <Fieldset.Root>
          {/* A fieldset, not a Field: a Field gives every checkbox inside it the same input id. */}
          <Fieldset.Legend>Events</Fieldset.Legend>
          <Stack gap="1" data-testid="webhook-events">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <Checkbox.Root
                key={type}
                checked={events.includes(type)}
                onCheckedChange={(e) => toggle(type, e.checked === true)}
                data-testid={`event-${type}`}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{type}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Stack>
        </Fieldset.Root>
        {error && (
          <Notice status="error" testId="register-webhook-error">
            {error}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}
