import { WEBHOOK_MESSAGES } from '@portal/contracts';
import { Notice } from '../../../components/notice';
import { ShownOnceSecret } from '../../../components/shown-once-secret';

/** The signing secret, shown once, with a copy button and how receivers verify it. */
export function SecretPanel({ secret }: { secret: string }) {
  return (
    <ShownOnceSecret secret={secret} testId="webhook-secret" warning={WEBHOOK_MESSAGES.created}>
      <Notice status="info">
        Each request carries a Portal-Signature header, t=timestamp,v1=signature: the hex HMAC-SHA256 of the
        timestamp, a dot and the raw body, keyed with this secret.
      </Notice>
    </ShownOnceSecret>
  );
}
