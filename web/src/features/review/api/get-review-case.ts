import type { ReviewCase } from '@portal/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /cm/review/{id}: the case with its review notes. */
export function useReviewCase(id: number | null) {
  return useQuery({
    queryKey: ['cases', 'review', id] as const,
    queryFn: ({ signal }) => api.get<ReviewCase>(`cm/review/${id}`, undefined, signal),
    enabled: id != null,
  });
}
