import { HStack, Input, NativeSelect } from '@chakra-ui/react';
import { AMOUNT_OPERATORS } from './filter-values';

/**
 * An amount with its operator (<, <=, =, >, >=). Emptying the amount blanks
 * the operator; entering one with no operator takes the configured default.
 */
export function AmountFilter({
  label,
  amount,
  operator,
  defaultOperator,
  onChange,
}: {
  label: string;
  amount: string;
  operator: string;
  defaultOperator: string;
  onChange: (amount: string, operator: string) => void;
}) {
  return (
    <HStack gap="2">
      <NativeSelect.Root size="sm" width="24" flexShrink={0}>
        <NativeSelect.Field
          aria-label={`${label} operator`}
          value={operator}
          onChange={(e) => onChange(amount, e.target.value)}
        >
          <option value="">—</option>
          {AMOUNT_OPERATORS.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Input
        size="sm"
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        aria-label={label}
        value={amount}
        onChange={(e) => {
          const next = e.target.value;
          onChange(next, next.trim() === '' ? '' : operator || defaultOperator);
        }}
      />
    </HStack>
  );
}
