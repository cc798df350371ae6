import { HStack, Icon, IconButton, Input, NativeSelect, Text } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { clampPage, offersPageSizes, PAGE_SIZES } from './paging';

/**
 * The pager under a paged select's options: page size (5, 10, 25, only when
 * there are more than 5 options), a page-number input held between 1 and the
 * page count, previous and next.
 */
export function OptionPager({
  label,
  total,
  page,
  count,
  size,
  onPage,
  onSize,
}: {
  label: string;
  total: number;
  page: number;
  count: number;
  size: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}) {
  // What the user is typing; null shows the current page. An empty box waits for a number.
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <HStack justify="space-between" gap="2" pt="2" borderTopWidth="1px" fontSize="sm">
      {offersPageSizes(total) ? (
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field
            aria-label={`${label} options per page`}
            value={String(size)}
            onChange={(e) => onSize(Number(e.target.value))}
          >
            {PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s} / page
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      ) : (
        <span />
      )}
      <HStack gap="1">
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={`${label} previous page`}
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        >
          <Icon size="sm">
            <ChevronLeft />
          </Icon>
        </IconButton>
        <Input
          size="xs"
          width="12"
          type="number"
          inputMode="numeric"
          min={1}
          max={count}
          textAlign="center"
          aria-label={`${label} page number`}
          value={typed ?? String(page)}
          onChange={(e) => {
            const raw = e.target.value;
            if (raw.trim() === '' || !Number.isFinite(Number(raw))) return setTyped(raw);
            const next = clampPage(Number(raw), count);
            setTyped(String(next));
            onPage(next);
          }}
          onBlur={() => setTyped(null)}
        />
        <Text whiteSpace="nowrap" color="fg.muted">
          of {count}
        </Text>
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={`${label} next page`}
          disabled={page >= count}
          onClick={() => onPage(page + 1)}
        >
          <Icon size="sm">
            <ChevronRight />
          </Icon>
        </IconButton>
      </HStack>
    </HStack>
  );
}
