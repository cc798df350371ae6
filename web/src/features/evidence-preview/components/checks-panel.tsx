import type { PacketCheck } from '@portal/contracts';
import { Badge, Button, Field, HStack, Stack, Text, Textarea } from '@chakra-ui/react';

/**
 * What a reviewer at the card network would reject (issue 34): blocked
 * findings first (a card number offers 'Mask'), then warnings, which a note
 * accepts. The server checks again when the packet is submitted.
 */
export function ChecksPanel({
  checks,
  onMask,
  note,
  onNote,
  busy,
}: {
  checks: readonly PacketCheck[];
  onMask?: (mask: NonNullable<PacketCheck['mask']>) => void;
  note?: string;
  onNote?: (note: string) => void;
  busy?: boolean;
}) {
  const warnings = checks.filter((c) => c.level === 'warning');
  const ordered = [...checks.filter((c) => c.level === 'blocked'), ...warnings];
  if (!checks.length)
    return (
      <Text fontSize="sm" color="green.700" data-testid="packet-checks-clear">
        No problems found: nothing a card network reviewer would reject.
      </Text>
    );
  return (
    <Stack gap="2" data-testid="packet-checks">
      {ordered.map((c, i) => (
        <HStack
          key={`${c.code}:${c.page ?? ''}:${i}`}
          justify="space-between"
          align="start"
          borderWidth="1px"
          borderRadius="sm"
          px="2"
          py="1"
          borderColor={c.level === 'blocked' ? 'red.300' : 'orange.300'}
          data-testid="packet-check"
          data-code={c.code}
          data-level={c.level}
        >
          <HStack align="start" gap="2">
            <Badge colorPalette={c.level === 'blocked' ? 'red' : 'orange'} size="sm">
              {c.level === 'blocked' ? 'Must fix' : 'Warning'}
            </Badge>
            <Text fontSize="sm">{c.message}</Text>
          </HStack>
          {c.mask && onMask && (
            <Button
              size="xs"
              colorPalette="red"
              variant="outline"
              disabled={busy}
              onClick={() => onMask(c.mask!)}
              data-testid="packet-mask"
            >
              Mask
            </Button>
          )}
        </HStack>
      ))}
      {warnings.length > 0 && onNote && (
        <Field.Root>
          <Field.Label>Accept the warnings with a note (kept in the case history)</Field.Label>
          <Textarea
            value={note ?? ''}
            onChange={(e) => onNote(e.target.value)}
            rows={2}
            maxLength={1000}
            disabled={busy}
            data-testid="packet-accept-note"
          />
        </Field.Root>
      )}
    </Stack>
  );
}
