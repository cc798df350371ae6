import { HStack, NativeSelect, Text } from '@chakra-ui/react';

/** 'Rows per page' with the grid's page sizes. */
export function PageSizeSelect({
  sizes,
  value,
  onChange,
  label,
  ariaLabel,
  size = 'sm',
  testId,
}: {
  sizes: readonly number[];
  value: number;
  onChange: (size: number) => void;
  label: string;
  ariaLabel: string;
  size?: 'xs' | 'sm';
  testId?: string;
}) {
  return (
    <HStack>
      <Text fontSize="sm">{label}</Text>
      <NativeSelect.Root size={size} width="20">
        <NativeSelect.Field
          aria-label={ariaLabel}
          value={value}
          onChange={(e) => onChange(Number(e.target.value))}
          data-testid={testId}
        >
          {sizes.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </HStack>
  );
}
