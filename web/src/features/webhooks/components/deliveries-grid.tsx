import { Badge, Button } from '@chakra-ui/react';
import type { WebhookDelivery } from '@portal/contracts';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { Suspense, useMemo } from 'react';
import type { PageRequest } from '../../../components/data-grid';
import { LazyDataGrid } from '../../../components/lazy-data-grid';
import { toaster } from '../../../components/toaster';
import { GENERIC_ERROR } from '../../../lib/errors';
import { listDeliveries, redeliver } from '../api/webhooks-api';

const when = (v: unknown) => (typeof v === 'string' ? v.replace('T', ' ').slice(0, 19) : '');
const PALETTE: Record<WebhookDelivery['state'], string> = {
  queued: 'gray',
  retrying: 'orange',
  succeeded: 'green',
  failed: 'red',
};

/** One endpoint's deliveries, newest first: event, status, response code, attempts, time, Redeliver. */
export function DeliveriesGrid({
  endpointId,
  canWrite,
  version,
  onChanged,
}: {
  endpointId: number;
  canWrite: boolean;
  version: number;
  onChanged: () => void;
}) {
  const columns = useMemo<ColDef<WebhookDelivery>[]>(
    () => [
      // First, as on the ERT grid: a wide grid renders only the columns in view.
      ...(canWrite
        ? [
            {
              headerName: '',
              sortable: false,
              minWidth: 120,
              maxWidth: 130,
              cellRenderer: (p: ICellRendererParams<WebhookDelivery>) =>
                p.data ? (
                  <Button
                    size="xs"
                    variant="outline"
                    data-testid={`redeliver-${p.data.id}`}
                    onClick={() =>
                      redeliver(endpointId, p.data!.id)
                        .then((r) => {
                          toaster.create({ type: 'success', description: r.message });
                          onChanged();
                        })
                        .catch((e: Error) =>
                          toaster.create({ type: 'error', description: e.message || GENERIC_ERROR }),
                        )
                    }
                  >
                    Redeliver
                  </Button>
                ) : null,
            } satisfies ColDef<WebhookDelivery>,
          ]
        : []),
      { field: 'event_type', headerName: 'Event', minWidth: 240, sortable: false },
      {
        field: 'state',
        headerName: 'Status',
        minWidth: 120,
        sortable: false,
        cellRenderer: (p: ICellRendererParams<WebhookDelivery>) =>
          p.data ? <Badge colorPalette={PALETTE[p.data.state]}>{p.data.state}</Badge> : null,
      },
      { field: 'response_code', headerName: 'Response', minWidth: 110, sortable: false },
      { field: 'attempts', headerName: 'Attempts', minWidth: 110, sortable: false },
      {
        field: 'created_at',
        headerName: 'Time',
        minWidth: 200,
        sortable: false,
        valueFormatter: (p) => when(p.value),
      },
      { field: 'last_error', headerName: 'Last error', minWidth: 220, sortable: false },
      { field: 'event_id', headerName: 'Event ID', minWidth: 290, sortable: false },
    ],
    [canWrite, endpointId, onChanged],
  );

  const fetchPage = async (req: PageRequest) => {
    const r = await listDeliveries(endpointId, req.start, req.limit);
    return { rows: r.data, total: r.pagination.total };
  };

  return (
    <Suspense fallback={null}>
      <LazyDataGrid<WebhookDelivery>
        columns={columns}
        fetchPage={fetchPage}
        queryKey={`webhook-deliveries:${endpointId}:${version}`}
        testId="webhook-deliveries-grid"
        height={360}
        noRowsText="No deliveries yet."
      />
    </Suspense>
  );
}
