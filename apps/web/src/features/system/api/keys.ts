/** Query keys of the system-wide lookups: constants in a language. */
export const systemKeys = {
  all: ['system'] as const,
  constants: (lang: string) => ['system', 'constants', lang] as const,
}
