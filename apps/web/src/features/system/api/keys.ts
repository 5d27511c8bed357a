/** Query keys of the system-wide lookups: constants and the data dictionary in a language. */
export const systemKeys = {
  all: ['system'] as const,
  constants: (lang: string) => ['system', 'constants', lang] as const,
  dataDict: (lang: string) => ['system', 'data-dict', lang] as const,
}
