/** Form value normaliser: the login forms strip every whitespace character. */
export const stripSpaces = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, '') : value)
