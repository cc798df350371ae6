import type { RdrRules, RuleCondition, RuleOperator, RuleSubject } from '@portal/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type RuleOwner = { kind: 'mids' | 'merchants'; id: number };

export function useRuleLists() {
  const subjects = useQuery({
    queryKey: ['rules', 'subjects'],
    queryFn: ({ signal }) => api.get<{ data: RuleSubject[] }>('cm/rules/subjects', undefined, signal),
    staleTime: 10 * 60_000,
  });
  const operators = useQuery({
    queryKey: ['rules', 'operators'],
    queryFn: ({ signal }) => api.get<{ data: RuleOperator[] }>('cm/rules/operators', undefined, signal),
    staleTime: 10 * 60_000,
  });
  return { subjects, operators };
}

export function useRdrRules(owner: RuleOwner) {
  return useQuery({
    queryKey: ['rdr-rules', owner.kind, owner.id],
    queryFn: ({ signal }) => api.get<RdrRules>(`cm/${owner.kind}/${owner.id}/rules`, undefined, signal),
  });
}

/** PUT /cm/{mids|merchants}/{id}/rules/rdr with body rules. */
export function useSaveRdrRules(owner: RuleOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rules: RuleCondition[]) =>
      api.put<RdrRules>(`cm/${owner.kind}/${owner.id}/rules/rdr`, { rules }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['rdr-rules', owner.kind, owner.id] }),
  });
}
