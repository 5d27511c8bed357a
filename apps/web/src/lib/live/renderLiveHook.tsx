import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import { createLiveBus, LiveBusContext } from './liveContext'

/** Tests: renders a hook under a live bus and a query cache; answers the bus and a spy on invalidations. */
export function renderLiveHook<P>(hook: (props: P) => unknown, initialProps?: P) {
  const bus = createLiveBus()
  const client = new QueryClient()
  const invalidate = vi.spyOn(client, 'invalidateQueries')
  const view = renderHook(hook, {
    initialProps,
    wrapper: ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <LiveBusContext.Provider value={bus}>{children}</LiveBusContext.Provider>
      </QueryClientProvider>
    ),
  })
  const keys = () => invalidate.mock.calls.map(([filters]) => filters?.queryKey)
  return { bus, invalidate, keys, ...view }
}
