import { Box, Button, Icon, Input, Popover, Portal, Spinner, Stack, Tag, Text, Wrap } from '@chakra-ui/react';
import { Check, ChevronDown } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useOptionPage, type OptionSource } from '../../api/get-select-options';
import type { Choice } from '../../../../lib/option-pages';
import { OptionPager } from './option-pager';
import { clampPage, DEFAULT_PAGE_SIZE, pageCount, SELECT_SEARCH_DEBOUNCE_MS } from './paging';

export const NO_RESULTS = 'No results found';

/**
 * A searchable, paged select (spec 2 §2.2): the options come page by page
 * from `source`, searched 500 ms after the last keystroke. One or many
 * choices; many show as removable tags. Choices are kept as value and label,
 * so they survive paging and searching (a chosen option need not be on the
 * page shown).
 *
 * Keyboard: the search box is a combobox over the option list (arrows move,
 * Enter chooses, Page Up/Down turn pages, Escape closes); the pager's
 * controls are reached with Tab.
 */
export function PagedSelect({
  label,
  source,
  multiple = false,
  value,
  onChange,
  placeholder = 'All',
  testId,
}: {
  label: string;
  source: OptionSource;
  multiple?: boolean;
  value: Choice[];
  onChange: (value: Choice[]) => void;
  placeholder?: string;
  testId?: string;
}) {
  const id = useId();
  const listId = `${id}-options`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [size, setSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [page, setPage] = useState(1);
  const [active, setActive] = useState(0);

  useEffect(() => {
    if (text.trim() === search) return;
    const t = setTimeout(() => {
      setSearch(text.trim());
      setPage(1);
      setActive(0);
    }, SELECT_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, search]);

  const query = useOptionPage(source, { search, start: (page - 1) * size, limit: size }, open);
  const options = query.data?.options ?? [];
  const total = query.data?.total ?? 0;
  const count = pageCount(total, size);
  const chosen = new Set(value.map((c) => c.value));
  const summary = multiple
    ? value.length
      ? `${value.length} selected`
      : placeholder
    : (value[0]?.label ?? placeholder);

  const goTo = (p: number) => {
    setPage(clampPage(p, count));
    setActive(0);
  };
  const choose = (o: Choice) => {
    if (multiple) {
      onChange(chosen.has(o.value) ? value.filter((c) => c.value !== o.value) : [...value, o]);
    } else {
      onChange(chosen.has(o.value) ? [] : [o]);
      setOpen(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => setActive((a) => Math.min(a + 1, options.length - 1)),
      ArrowUp: () => setActive((a) => Math.max(a - 1, 0)),
      Enter: () => options[active] && choose(options[active]),
      PageDown: () => goTo(page + 1),
      PageUp: () => goTo(page - 1),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
  };

  return (
    <Stack gap="1" data-testid={testId}>
      <Popover.Root
        open={open}
        onOpenChange={(e) => setOpen(e.open)}
        initialFocusEl={() => inputRef.current}
        positioning={{ placement: 'bottom-start' }}
        lazyMount
      >
        <Popover.Trigger asChild>
          <Button
            size="sm"
            variant="outline"
            justifyContent="space-between"
            fontWeight="normal"
            width="full"
            aria-label={`${label}: ${summary}`}
          >
            <Text as="span" truncate>
              {summary}
            </Text>
            <Icon size="sm" color="fg.muted">
              <ChevronDown />
            </Icon>
          </Button>
        </Popover.Trigger>
        <Portal>
          <Popover.Positioner>
            <Popover.Content width="xs" aria-label={`Choose ${label}`}>
              <Popover.Body p="3">
                <Input
                  ref={inputRef}
                  size="sm"
                  placeholder="Search"
                  role="combobox"
                  aria-label={`Search ${label}`}
                  aria-expanded
                  aria-controls={listId}
                  aria-autocomplete="list"
                  aria-activedescendant={options[active] ? `${listId}-${active}` : undefined}
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  onKeyDown={onKeyDown}
                />
                <Box
                  as="ul"
                  id={listId}
                  role="listbox"
                  aria-label={label}
                  aria-multiselectable={multiple || undefined}
                  aria-busy={query.isFetching}
                  listStyleType="none"
                  my="2"
                  minH="8"
                  maxH="72"
                  overflowY="auto"
                >
                  {options.map((o, i) => {
                    const selected = chosen.has(o.value);
                    return (
                      <Box
                        as="li"
                        key={o.value}
                        id={`${listId}-${i}`}
                        role="option"
                        aria-selected={selected}
                        px="2"
                        py="1"
                        borderRadius="sm"
                        cursor="pointer"
                        display="flex"
                        alignItems="center"
                        gap="2"
                        bg={i === active ? 'brand.subtle' : undefined}
                        fontWeight={selected ? 'semibold' : undefined}
                        // Keep focus in the search box so the keyboard keeps working.
                        onMouseDown={(e) => e.preventDefault()}
                        onMouseEnter={() => setActive(i)}
                        onClick={() => choose(o)}
                      >
                        <Text
                          as="span"
                          aria-hidden
                          width="4"
                          flexShrink="0"
                          color="brand.fg"
                          display="inline-flex"
                        >
                          {selected && (
                            <Icon size="sm">
                              <Check />
                            </Icon>
                          )}
                        </Text>
                        {o.label}
                      </Box>
                    );
                  })}
                </Box>
                {query.isPending && <Spinner size="sm" aria-label="Loading options" />}
                {query.isError && (
                  <Text color="red.600" fontSize="sm">
                    The options could not be loaded.
                  </Text>
                )}
                {query.isSuccess && !query.isPlaceholderData && total === 0 && (
                  <Text color="fg.muted" fontSize="sm" role="status">
                    {NO_RESULTS}
                  </Text>
                )}
                {total > 0 && (
                  <OptionPager
                    label={label}
                    total={total}
                    page={page}
                    count={count}
                    size={size}
                    onPage={goTo}
                    onSize={(s) => {
                      setSize(s);
                      setPage(1);
                      setActive(0);
                    }}
                  />
                )}
                {value.length > 0 && (
                  <Button size="xs" variant="ghost" mt="1" onClick={() => onChange([])}>
                    Clear {multiple ? 'choices' : 'choice'}
                  </Button>
                )}
              </Popover.Body>
            </Popover.Content>
          </Popover.Positioner>
        </Portal>
      </Popover.Root>
      {multiple && value.length > 0 && (
        <Wrap gap="1" role="group" aria-label={`${label} chosen`}>
          {value.map((c) => (
            <Tag.Root key={c.value} size="sm" colorPalette="brand" variant="subtle">
              <Tag.Label>{c.label}</Tag.Label>
              <Tag.EndElement>
                <Tag.CloseTrigger
                  aria-label={`Remove ${c.label}`}
                  onClick={() => onChange(value.filter((x) => x.value !== c.value))}
                />
              </Tag.EndElement>
            </Tag.Root>
          ))}
        </Wrap>
      )}
    </Stack>
  );
}
