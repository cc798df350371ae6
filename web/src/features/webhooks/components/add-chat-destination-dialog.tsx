import { Checkbox, Field, Fieldset, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { CHAT_EVENT_TYPES, WEBHOOK_MESSAGES, type WebhookEndpoint } from '@portal/contracts';
import { useState } from 'react';
import { DialogActions, DialogFrame } from '../../../components/dialog-frame';
import { Notice } from '../../../components/notice';
import { GENERIC_ERROR } from '../../../lib/errors';
import { createWebhook } from '../api/webhooks-api';
import { CHAT_EVENT_LABELS, CHAT_TOOLS, type ChatTool } from '../lib/chat-tools';

/**
 * Add a Slack or Microsoft Teams incoming webhook (issue 35.4): the tool, the URL it gave, what to
 * send. The server checks the URL is that tool's (https, its hosts) and reachable like a webhook.
 */
export function AddChatDestinationDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (endpoint: WebhookEndpoint, message: string) => void;
}) {
  const [tool, setTool] = useState<ChatTool>('slack');
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...CHAT_EVENT_TYPES]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const valid = /^https?:\/\/\S+$/i.test(url.trim()) && events.length > 0;

  const toggle = (type: string, on: boolean) =>
    setEvents((list) => (on ? [...list, type] : list.filter((t) => t !== type)));

  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const created = await createWebhook({
        kind: tool,
        url: url.trim(),
        events: CHAT_EVENT_TYPES.filter((t) => events.includes(t)),
        description: description.trim() || undefined,
      });
      onCreated(created, WEBHOOK_MESSAGES.chatCreated);
    } catch (e) {
      setError((e as Error).message || GENERIC_ERROR);
    } finally {
      setBusy(false);
    }
  }

  return (
    <DialogFrame
      title="Add a chat destination"
      testId="add-chat-destination-dialog"
      onClose={onClose}
      size="lg"
      footer={
        <DialogActions
          onCancel={onClose}
          primary={{ label: 'Add', onClick: () => void submit(), disabled: !valid || busy, loading: busy }}
        />
      }
    >
      <Stack gap="4">
        <Field.Root required>
          <Field.Label>Tool</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              aria-label="Tool"
              value={tool}
              onChange={(e) => setTool(e.target.value as ChatTool)}
              data-testid="chat-tool"
            >
              {(Object.keys(CHAT_TOOLS) as ChatTool[]).map((t) => (
                <option key={t} value={t}>
                  {CHAT_TOOLS[t].label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root required>
          <Field.Label>Incoming webhook URL</Field.Label>
          <Input
            name="chat-url"
            placeholder={CHAT_TOOLS[tool].placeholder}
            value={url}
            maxLength={2000}
            onChange={(e) => setUrl(e.target.value)}
          />
          <Field.HelperText>{CHAT_TOOLS[tool].help}</Field.HelperText>
        </Field.Root>
        <Field.Root>
          <Field.Label>Description</Field.Label>
          <Input
            name="chat-description"
            value={description}
            maxLength={200}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field.Root>
        <Fieldset.Root>
          <Fieldset.Legend>Send</Fieldset.Legend>
          <Stack gap="1" data-testid="chat-events">
            {CHAT_EVENT_TYPES.map((type) => (
              <Checkbox.Root
                key={type}
                checked={events.includes(type)}
                onCheckedChange={(e) => toggle(type, e.checked === true)}
                data-testid={`chat-event-${type}`}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{CHAT_EVENT_LABELS[type]}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Stack>
        </Fieldset.Root>
        {error && (
          <Notice status="error" testId="add-chat-destination-error">
            {error}
          </Notice>
        )}
      </Stack>
    </DialogFrame>
  );
}
