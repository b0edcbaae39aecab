import type { RouterOutputs } from '@directory/core';
import { grants, type Scope } from '@directory/core/scopes';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { request } from './api-client.ts';
import { apiKey } from './api-key.ts';

type OwnKey = RouterOutputs['keys']['self']['data'];

/** The key entered in this tab, or null. */
function useApiKey(): string | null {
  return useSyncExternalStore(apiKey.subscribe, apiKey.get);
}

/**
 * Who the entered key is and what it may do (`GET /api/keys/self`), asked once per key: the
 * header shows its name, and pages hide what it may not do. A key the server refuses is
 * forgotten by the API client, which ends the sign-in.
 */
export function useOwnKey(): { key: string | null; own: OwnKey | undefined; pending: boolean } {
  const key = useApiKey();
  const query = useQuery({
    queryKey: ['own-key', key],
    queryFn: ({ signal }) => request((client) => client.keys.self(), { key: true, signal }),
    enabled: key !== null,
    staleTime: 60_000,
  });
  return { key, own: query.data?.data, pending: key !== null && query.isPending };
}

/**
 * Whether the entered key may do what needs `scope`: false only when the key is known to lack
 * it. Without a key the controls stay, and asking for the key is their first step.
 */
export function useCan(scope: Scope): { can: boolean; own: OwnKey | undefined } {
  const { own } = useOwnKey();
  return { can: own === undefined || grants(own.scopes, scope), own };
}
