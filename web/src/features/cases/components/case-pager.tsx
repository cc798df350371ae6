import { HStack, Icon, IconButton, Text } from '@chakra-ui/react';
import { ChevronFirst, ChevronLast, ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';

/** The pager of the server-paged case grid: 'a to b of n', 'Page x of y', first/previous/next/last. */
export function CasePager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total ? page * pageSize + 1 : 0;
  const to = Math.min(total, (page + 1) * pageSize);
  const us = (n: number) => n.toLocaleString('en-US');
  const button = (label: string, Glyph: LucideIcon, target: number, disabled: boolean) => (
    <IconButton
      size="xs"
      variant="ghost"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={() => onPage(target)}
    >
      <Icon size="sm">
        <Glyph />
      </Icon>
    </IconButton>
  );
  return (
    <HStack justify="flex-end" gap="2" py="1" fontSize="sm" data-testid="case-pager">
      <Text data-testid="case-pager-range">
        {us(from)} to {us(to)} of {us(total)}
      </Text>
      {button('First Page', ChevronFirst, 0, page === 0)}
      {button('Previous Page', ChevronLeft, page - 1, page === 0)}
      <Text data-testid="case-pager-page">
        Page {us(page + 1)} of {us(pages)}
      </Text>
      {button('Next Page', ChevronRight, page + 1, page + 1 >= pages)}
      {button('Last Page', ChevronLast, pages - 1, page + 1 >= pages)}
    </HStack>
  );
}
