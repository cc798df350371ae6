import { Button, Flex, Input, Text } from '@chakra-ui/react';
import { clampRange, lastDays, toIsoDate, type DateRange } from '../lib/dates';

const PRESETS = [
  { label: '7D', days: 7 },
  { label: '30D', days: 30 },
  { label: '90D', days: 90 },
  { label: '1Y', days: 365 },
];

/** From / to dates (yyyy-MM-dd); future dates are blocked (spec 1 §5). */
export function DateRangePicker({
  value,
  onChange,
  testId,
}: {
  value: DateRange;
  onChange: (r: DateRange) => void;
  testId?: string;
}) {
  const today = toIsoDate(new Date());
  const set = (r: DateRange) => onChange(clampRange(r));
  return (
    <Flex gap="2" align="center" wrap="wrap" data-testid={testId}>
      <Input
        type="date"
        size="sm"
        w="auto"
        aria-label="From date"
        max={value.to || today}
        value={value.from}
        onChange={(e) => e.target.value && set({ ...value, from: e.target.value })}
        bg="white"
      />
      <Text fontSize="sm" color="fg.muted">
        to
      </Text>
      <Input
        type="date"
        size="sm"
        w="auto"
        aria-label="To date"
        max={today}
        value={value.to}
        onChange={(e) => e.target.value && set({ ...value, to: e.target.value })}
        bg="white"
      />
      <Flex gap="1">
        {PRESETS.map((p) => (
          <Button
            key={p.label}
            size="xs"
            variant="ghost"
            colorPalette="brand"
            onClick={() => set(lastDays(p.days))}
          >
            {p.label}
          </Button>
        ))}
      </Flex>
    </Flex>
  );
}
