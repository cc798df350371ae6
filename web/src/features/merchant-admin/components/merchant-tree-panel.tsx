import { Box } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useMerchantTree } from '../api/merchant-admin-api';
import { defaultOpen, MerchantTreeView, type Selection } from './merchant-tree';

/**
 * The paged, searchable merchant tree of both Merchant Hierarchy views, with
 * its own paging, search and open nodes. `tileMerchant` (the dashboard's
 * mids_tile_clicked) shows only that merchant's tree with its path open.
 * Open nodes stay open across pages and refreshes (their children and MIDs
 * stay in the query cache); a new search starts from its own defaults.
 */
export function useMerchantTreePanel(tileMerchant?: number) {
  const [start, setStart] = useState(0);
  const [search, setSearch] = useState('');
  const tree = useMerchantTree({ start, search, search_merchant_id: tileMerchant });
  const [toggled, setToggled] = useState<Set<number>>(new Set());
  // `toggled` flips a node from its default (open on the path and the search branches, else closed).
  const expanded = useMemo(() => {
    const open = defaultOpen(tree.data);
    for (const id of toggled)
      if (open.has(id)) open.delete(id);
      else open.add(id);
    return open;
  }, [tree.data, toggled]);

  const view = (selected: Selection | null, onSelect: (s: Selection) => void) => (
    <Box bg="white" borderRadius="lg" borderWidth="1px" p="3" maxH="75vh" overflowY="auto">
      <MerchantTreeView
        tree={tree.data}
        loading={tree.isLoading}
        start={start}
        searching={Boolean(search) || tileMerchant !== undefined}
        onPage={setStart}
        onSearch={(s) => {
          setSearch(s);
          setStart(0);
          setToggled(new Set());
        }}
        expanded={expanded}
        toggle={(id) =>
          setToggled((old) => {
            const next = new Set(old);
            if (next.has(id)) next.delete(id);
            else next.add(id);
            return next;
          })
        }
        selected={selected}
        onSelect={onSelect}
      />
    </Box>
  );
  return { tree, view };
}
