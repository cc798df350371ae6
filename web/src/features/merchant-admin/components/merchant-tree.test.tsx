import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import type { MerchantMids, MerchantTree, MerchantTreeNode } from '@portal/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Selection } from './merchant-tree';
import { useMerchantTreePanel } from './merchant-tree-panel';

/**
 * The lazy tree (issue 15): a page renders its nodes only; opening a node
 * reads its children and MIDs (a loading row meanwhile), pages them on "Show
 * more", keeps what was opened, and a search or the mids_tile_clicked path
 * arrives with its branch open.
 */
const get = vi.fn();
vi.mock('../../../lib/api-client', () => ({
  api: { get: (...args: unknown[]) => get(...args) },
  saveBlob: vi.fn(),
}));

const system = createSystem(defaultConfig);
type Params = Record<string, unknown>;

const node = (id: number, label: string, more: Partial<MerchantTreeNode> = {}): MerchantTreeNode => ({
  id,
  label,
  alias: null,
  parentId: 1,
  status: { id: 1 },
  child_count: 0,
  has_children: false,
  mid_count: 0,
  match: false,
  children: [],
  ...more,
});
const ROOT = { ...node(1, 'Acme Root', { parentId: null, child_count: 2, has_children: true }) };
const { match: _m, children: _c, ...rootFields } = ROOT;
const page = (
  data: MerchantTreeNode[],
  total = data.length,
  path: number[] = [],
  start = 0,
): MerchantTree => ({
  root: rootFields,
  data,
  path,
  pagination: { start, limit: 20, total },
});
const KIDS = Array.from({ length: 25 }, (_, i) =>
  node(100 + i, `Kid ${String(i).padStart(2, '0')}`, {
    parentId: 10,
    ...(i === 0 ? { child_count: 1, has_children: true } : {}),
  }),
);
const mids = (merchantId: number, n: number): MerchantMids => ({
  data: Array.from({ length: n }, (_, i) => ({
    id: merchantId * 1000 + i,
    mid: `${merchantId}-MID-${i}`,
    alias: null,
    descriptor: null,
    platform: null,
    mcc: null,
    caid: null,
    service_level: 'Basic',
    status_id: 2,
    date_created: '2026-01-01T00:00:00Z',
  })),
  pagination: { start: 0, limit: 50, total: n },
});

/** Answers by path and params; a `hold` promise keeps a children read pending. */
let hold: Promise<void> | null = null;
function answer(path: string, params: Params = {}): Promise<unknown> {
  if (path === 'cm/merchants/list') {
    if (params.parent_id === 10) {
      const start = Number(params.start ?? 0);
      const data = KIDS.slice(start, start + 20);
      const ready = hold ?? Promise.resolve();
      return ready.then(() => page(data, KIDS.length, [], start));
    }
    if (params.parent_id === 100) return Promise.resolve(page([node(200, 'Grandchild', { parentId: 100 })]));
    if (params.search === 'kid 00')
      return Promise.resolve(
        page(
          [
            node(10, 'Summit', {
              child_count: 25,
              has_children: true,
              children: [
                node(100, 'Kid 00', { parentId: 10, match: true, child_count: 1, has_children: true }),
              ],
            }),
          ],
          1,
        ),
      );
    if (params.search_merchant_id === 100)
      return Promise.resolve(
        page(
          [
            node(10, 'Summit', {
              child_count: 25,
              has_children: true,
              children: [
                node(100, 'Kid 00', {
                  parentId: 10,
                  match: true,
                  child_count: 1,
                  has_children: true,
                  mid_count: 1,
                }),
              ],
            }),
          ],
          1,
          [1, 10, 100],
        ),
      );
    return Promise.resolve(
      page([node(10, 'Summit', { child_count: 25, has_children: true, mid_count: 2 }), node(11, 'Harbor')]),
    );
  }
  const m = /^cm\/merchants\/(\d+)\/mids$/.exec(path);
  if (m) return Promise.resolve(mids(Number(m[1]), Number(m[1]) === 10 ? 2 : 1));
  return Promise.reject(new Error(`unexpected ${path}`));
}

function Harness({ tile }: { tile?: number }) {
  const { view } = useMerchantTreePanel(tile);
  const [selected, setSelected] = useState<Selection | null>(null);
  return view(selected, setSelected);
}
function renderTree(tile?: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <ChakraProvider value={system}>
      <QueryClientProvider client={client}>
        <Harness tile={tile} />
      </QueryClientProvider>
    </ChakraProvider>,
  );
}
const calls = (pred: (path: string, params: Params) => boolean) =>
  get.mock.calls.filter(([path, params]) => pred(path as string, (params ?? {}) as Params));
const childReads = (parent: number) => calls((p, q) => p === 'cm/merchants/list' && q.parent_id === parent);
const names = () => screen.queryAllByTestId('tree-merchant').map((b) => b.textContent);

beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
});
beforeEach(() => {
  hold = null;
  get.mockReset();
  get.mockImplementation((path: string, params?: Params) => answer(path, params));
});
afterEach(() => cleanup());

describe('merchant tree', () => {
  it('renders a page without reading any children, then reads them and the MIDs when a node opens', async () => {
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    renderTree();
    await screen.findByText('Summit');
    expect(names()).toEqual(['Summit', 'Harbor']);
    expect(childReads(10)).toHaveLength(0);
    expect(calls((p) => p.includes('/mids'))).toHaveLength(0);
    // Harbor has neither children nor MIDs: nothing to open.
    expect(screen.getByLabelText('Expand Harbor').getAttribute('aria-expanded')).toBeNull();
    expect(screen.getByLabelText('Expand Summit').getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'Expand Summit' }));
    expect(await screen.findByText('Loading merchants…')).toBeTruthy();
    release();
    await screen.findByText('Kid 00');
    expect(screen.queryByText('Loading merchants…')).toBeNull();
    expect(childReads(10)[0]![1]).toMatchObject({ parent_id: 10, start: 0, limit: 20 });
    expect(names()).toHaveLength(2 + 20);
    await waitFor(() => expect(screen.getAllByTestId('tree-mid')).toHaveLength(2));
    expect(calls((p) => p === 'cm/merchants/10/mids')).toHaveLength(1);
  });

  it('pages the children on "Show more" and keeps open nodes open across collapse and reopen', async () => {
    renderTree();
    fireEvent.click(await screen.findByRole('button', { name: 'Expand Summit' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Show more merchants (20 of 25)' }));
    await screen.findByText('Kid 24');
    expect(childReads(10).map(([, q]) => (q as Params).start)).toEqual([0, 20]);
    expect(screen.queryByRole('button', { name: /Show more merchants/ })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Expand Kid 00' }));
    await screen.findByText('Grandchild');
    // Collapse and reopen the parent: the child stays open, nothing is read again.
    fireEvent.click(screen.getByRole('button', { name: 'Collapse Summit' }));
    expect(screen.queryByText('Kid 00')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Expand Summit' }));
    expect(screen.getByText('Grandchild')).toBeTruthy();
    expect(childReads(10)).toHaveLength(2);
    expect(childReads(100)).toHaveLength(1);
  });

  it('shows a search with the branch to its matches open, and reads a match’s children when opened', async () => {
    renderTree();
    const box = await screen.findByRole('textbox', { name: 'Search merchants' });
    fireEvent.change(box, { target: { value: 'kid 00' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(names()).toEqual(['Summit', 'Kid 00']));
    // The branch came with the page: Summit is open without reading its 25 children.
    expect(childReads(10)).toHaveLength(0);
    const tree = screen.getByTestId('merchant-tree');
    expect(within(tree).getByText('Kid 00').getAttribute('data-match')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Expand Kid 00' }));
    await screen.findByText('Grandchild');
    expect(childReads(100)).toHaveLength(1);
    // Clearing the field goes back to the page.
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(names()).toEqual(['Summit', 'Harbor']));
  });

  it('opens the mids_tile_clicked path down to the merchant and reads its children and MIDs', async () => {
    renderTree(100);
    await screen.findByText('Grandchild');
    expect(calls((p, q) => p === 'cm/merchants/list' && q.search_merchant_id === 100)).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getAllByTestId('tree-mid').map((m) => m.dataset.mid)).toEqual(['100-MID-0']),
    );
    // The root's own MIDs are not part of the tile's branch.
    expect(calls((p) => p === 'cm/merchants/1/mids')).toHaveLength(0);
  });
});
