/**
 * The query keys of one resource, shaped like react-admin's: `[resource]` for everything,
 * `[resource, 'list', params]` for a page of the list, `[resource, 'detail', id]` for one record.
 * A save invalidates the narrowest prefix that covers what it changed.
 */
export function resourceKeys<R extends string>(resource: R) {
  return {
    all: [resource] as const,
    lists: () => [resource, 'list'] as const,
    list: (params: object) => [resource, 'list', params] as const,
    details: () => [resource, 'detail'] as const,
    detail: (id: number | string) => [resource, 'detail', id] as const,
  }
}
