import type { RdrRules, RuleCondition, RuleOperatorList, RuleSubjectList } from '@portal/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export type RuleOwner = { kind: 'mids' | 'merchants'; id: number };

export function getRuleSubjectsQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.merchantAdmin, 'rule-subjects'] as const,
    queryFn: ({ signal }) => api.get<RuleSubjectList>('cm/rules/subjects', undefined, signal),
    staleTime: 10 * 60_000,
  });
}

export function getRuleOperatorsQueryOptions() {
  return queryOptions({
    queryKey: [...queryRoots.merchantAdmin, 'rule-operators'] as const,
    queryFn: ({ signal }) => api.get<RuleOperatorList>('cm/rules/operators', undefined, signal),
    staleTime: 10 * 60_000,
  });
}

export function useRuleLists() {
  const subjects = useQuery(getRuleSubjectsQueryOptions());
  const operators = useQuery(getRuleOperatorsQueryOptions());
  return { subjects, operators };
}

export function getRdrRulesQueryOptions(owner: RuleOwner) {
  return queryOptions({
    queryKey: [...queryRoots.merchantAdmin, 'rdr-rules', owner.kind, owner.id] as const,
    queryFn: ({ signal }) => api.get<RdrRules>(`cm/${owner.kind}/${owner.id}/rules`, undefined, signal),
  });
}

export function useRdrRules(owner: RuleOwner) {
  return useQuery(getRdrRulesQueryOptions(owner));
}

/** PUT /cm/{mids|merchants}/{id}/rules/rdr with body rules. */
export function useSaveRdrRules(owner: RuleOwner) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (rules: RuleCondition[]) =>
      api.put<RdrRules>(`cm/${owner.kind}/${owner.id}/rules/rdr`, { rules }),
    onSuccess: () => qc.invalidateQueries({ queryKey: getRdrRulesQueryOptions(owner).queryKey }),
  });
}
