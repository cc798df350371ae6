import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OptionSource } from '../../api/get-select-options';
import { staticOptionPages, type Choice, type OptionPageRequest } from '../../../../lib/option-pages';
import { PagedSelect } from './paged-select';

const system = createSystem(defaultConfig);
const CHOICES: Choice[] = Array.from({ length: 12 }, (_, i) => ({
  value: String(i + 1),
  label: `Code ${String(i + 1).padStart(2, '0')}`,
}));

beforeAll(() => {
  // jsdom lacks these; Chakra's popover positioning and scrolling ask for them.
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderSelect({ multiple = false, choices = CHOICES } = {}) {
  const requests: OptionPageRequest[] = [];
  const inner = staticOptionPages(choices);
  const source: OptionSource = {
    key: `test-${Math.random()}`,
    fetch: (r) => {
      requests.push(r);
      return inner(r);
    },
  };
  const changes: Choice[][] = [];
  function Harness() {
    const [value, setValue] = useState<Choice[]>([]);
    return (
      <PagedSelect
        label="Reason Code"
        source={source}
        multiple={multiple}
        value={value}
        onChange={(v) => {
          changes.push(v);
          setValue(v);
        }}
      />
    );
  }
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Harness />
      </QueryClientProvider>
    </ChakraProvider>,
  );
  return { requests, changes };
}

/** The options of the list (the page-size select has native options too). */
const options = () => within(screen.getByRole('listbox', { name: 'Reason Code' })).queryAllByRole('option');
const option = (name: RegExp) => within(screen.getByRole('listbox')).getByRole('option', { name });
const optionLabels = () => options().map((o) => o.textContent);

async function openSelect() {
  fireEvent.click(screen.getByRole('button', { name: /^Reason Code:/ }));
  await waitFor(() => expect(options()).toHaveLength(5));
}

describe('PagedSelect', () => {
  it('pages by 5 with a page number held between 1 and the page count', async () => {
    renderSelect();
    await openSelect();
    expect(optionLabels()).toEqual(['Code 01', 'Code 02', 'Code 03', 'Code 04', 'Code 05']);
    const pageInput = screen.getByLabelText('Reason Code page number');
    expect(screen.getByText('of 3')).toBeTruthy();

    fireEvent.change(pageInput, { target: { value: '9' } });
    expect((pageInput as HTMLInputElement).value).toBe('3');
    await waitFor(() => expect(optionLabels()).toEqual(['Code 11', 'Code 12']));

    fireEvent.change(pageInput, { target: { value: '0' } });
    expect((pageInput as HTMLInputElement).value).toBe('1');
    await waitFor(() => expect(optionLabels()[0]).toBe('Code 01'));
    expect((screen.getByLabelText('Reason Code previous page') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByLabelText('Reason Code next page'));
    await waitFor(() => expect(optionLabels()[0]).toBe('Code 06'));

    fireEvent.change(screen.getByLabelText('Reason Code options per page'), { target: { value: '25' } });
    await waitFor(() => expect(options()).toHaveLength(12));
    expect(screen.getByText('of 1')).toBeTruthy();
  });

  it('offers no page sizes for 5 options or fewer', async () => {
    renderSelect({ choices: CHOICES.slice(0, 5) });
    await openSelect();
    expect(screen.queryByLabelText('Reason Code options per page')).toBeNull();
  });

  it('searches 500 ms after the last keystroke and says when nothing matches', async () => {
    const { requests } = renderSelect();
    await openSelect();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const box = screen.getByRole('combobox', { name: 'Search Reason Code' });
    fireEvent.change(box, { target: { value: 'Code 1' } });
    fireEvent.change(box, { target: { value: 'Code 12' } });
    act(() => void vi.advanceTimersByTime(400));
    expect(requests.some((r) => r.search)).toBe(false);
    act(() => void vi.advanceTimersByTime(150));
    await waitFor(() => expect(optionLabels()).toEqual(['Code 12']));
    expect(requests.filter((r) => r.search).map((r) => r.search)).toEqual(['Code 12']);

    fireEvent.change(box, { target: { value: 'zzz' } });
    act(() => void vi.advanceTimersByTime(550));
    await screen.findByText('No results found');
    expect(options()).toHaveLength(0);
  });

  it('keeps many choices as removable tags across pages and searches', async () => {
    const { changes } = renderSelect({ multiple: true });
    await openSelect();
    fireEvent.click(option(/Code 02/));
    fireEvent.click(screen.getByLabelText('Reason Code next page'));
    await waitFor(() => expect(optionLabels()[0]).toBe('Code 06'));
    fireEvent.click(option(/Code 07/));
    expect(changes.at(-1)?.map((c) => c.value)).toEqual(['2', '7']);
    expect(option(/Code 07/).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: /^Reason Code: 2 selected/ })).toBeTruthy();

    const tags = screen.getByRole('group', { name: 'Reason Code chosen' });
    expect(within(tags).getByText('Code 02')).toBeTruthy();
    fireEvent.click(within(tags).getByRole('button', { name: 'Remove Code 02' }));
    expect(changes.at(-1)?.map((c) => c.value)).toEqual(['7']);
  });

  it('works from the keyboard: arrows move, Enter chooses, Page Down turns the page', async () => {
    const { changes } = renderSelect();
    await openSelect();
    const box = screen.getByRole('combobox', { name: 'Search Reason Code' });
    fireEvent.keyDown(box, { key: 'PageDown' });
    await waitFor(() => expect(optionLabels()[0]).toBe('Code 06'));
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options()[1]!.id);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(changes.at(-1)).toEqual([{ value: '7', label: 'Code 07' }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reason Code: Code 07' })).toBeTruthy());
  });
});
