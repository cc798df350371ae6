import { Button, Text } from '@chakra-ui/react';
import type { MessageActionName, PortalMessageData } from '@portal/contracts';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DialogFrame } from '../../../components/dialog-frame';
import { useProfile } from '../../../lib/auth/auth-context';
import { useTenant } from '../../../lib/tenant-config';
import { useMessages } from '../api/get-messages';
import { postMessageAction } from '../api/post-message-action';
import { applicableMessage, readDismissed, rememberDismissed } from '../message-rules';

const ORDER: { action: MessageActionName; variant: 'outline' | 'ghost' | 'solid' }[] = [
  { action: 'close', variant: 'ghost' },
  { action: 'deny', variant: 'outline' },
  { action: 'accept', variant: 'solid' },
];

/** Follows an action's redirect: a portal path in the app, an https address in a new tab. */
function follow(redirect: string | null | undefined, navigate: (to: string) => void) {
  if (!redirect) return;
  if (redirect.startsWith('/') && !redirect.startsWith('//')) navigate(redirect);
  else if (/^https:\/\//i.test(redirect)) window.open(redirect, '_blank', 'noopener,noreferrer');
}

/**
 * The in-app message of the current route (spec 3 §2 Messages): acting on it
 * (accept, deny, close, or closing the dialog) records the id in the browser
 * as dismissed, posts the action and follows the action's redirect.
 */
export function MessageDialog() {
  const tenant = useTenant();
  const profile = useProfile();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const messages = useMessages(profile.id);
  const [dismissed, setDismissed] = useState(() => readDismissed(localStorage, tenant.id, profile.id));
  const message = useMemo(
    () => applicableMessage(messages.data?.data ?? [], pathname, dismissed),
    [messages.data, pathname, dismissed],
  );
  if (!message) return null;

  const act = (m: PortalMessageData, action: MessageActionName) => {
    setDismissed(rememberDismissed(localStorage, tenant.id, profile.id, m.id));
    postMessageAction(m.id, action);
    follow(m.actions[action]?.redirect, navigate);
  };

  return (
    <DialogFrame
      title={message.header}
      subheader={
        message.sub_header && (
          <Text color="fg.muted" fontSize="sm" fontWeight="medium">
            {message.sub_header}
          </Text>
        )
      }
      testId="message-dialog"
      data={{ 'data-message-id': message.id }}
      onClose={() => act(message, 'close')}
      closeButton={{ label: 'Close message' }}
      footer={
        <>
          {ORDER.map(({ action, variant }) => {
            const a = message.actions[action];
            if (!a) return null;
            return (
              <Button
                key={action}
                variant={variant}
                colorPalette={variant === 'solid' ? 'brand' : undefined}
                onClick={() => act(message, action)}
                data-testid={`message-${action}`}
              >
                {a.label}
              </Button>
            );
          })}
        </>
      }
    >
      <Text whiteSpace="pre-line">{message.message}</Text>
    </DialogFrame>
  );
}
