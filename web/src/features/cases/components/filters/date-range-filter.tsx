import { HStack, Icon, IconButton, Input, Text } from '@chakra-ui/react';
import { X } from 'lucide-react';
import { toIsoDate } from '../../../../lib/dates';

/**
 * A from/to date range (yyyy-MM-dd). Post-style dates ('date') stop at today;
 * due dates ('due-date') may lie ahead. is_clear_date_icon adds a clear button.
 */
export function DateRangeFilter({
  label,
  from,
  to,
  future,
  clearable,
  onChange,
}: {
  label: string;
  from: string;
  to: string;
  future: boolean;
  clearable: boolean;
  onChange: (from: string, to: string) => void;
}) {
  const today = future ? undefined : toIsoDate(new Date());
  return (
    <HStack gap="1">
      <Input
        size="sm"
        type="date"
        aria-label={`${label} from`}
        value={from}
        max={to || today}
        onChange={(e) => onChange(e.target.value, to)}
      />
      <Text fontSize="sm" color="fg.muted" aria-hidden>
        –
      </Text>
      <Input
        size="sm"
        type="date"
        aria-label={`${label} to`}
        value={to}
        min={from || undefined}
        max={today}
        onChange={(e) => onChange(from, e.target.value)}
      />
      {clearable && (
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={`Clear ${label}`}
          disabled={!from && !to}
          onClick={() => onChange('', '')}
        >
          <Icon size="sm">
            <X />
          </Icon>
        </IconButton>
      )}
    </HStack>
  );
}
