/** The one QueryClient of the page; a module singleton so every island shares its cache (SPEC §7 defaults). */
import { QueryClient } from '@tanstack/react-query';

/** Shared by all islands; survives soft navigation because modules do. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: true, staleTime: 60_000 } },
});
