/** Query key of the server-built menu of a session. */
export const menuKeys = {
  all: ['menu'] as const,
  menu: (token: string | null) => ['menu', token] as const,
}
