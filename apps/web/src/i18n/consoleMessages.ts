type TextModule = Record<string, Record<string, unknown>>

// Every feature's texts but the sign-in's (loaded with the shell), found by their file names.
const zh = import.meta.glob<TextModule>(['../features/*/i18n/zh-CN.ts', '!../features/auth/i18n/*'], {
  eager: true,
})
const en = import.meta.glob<TextModule>(['../features/*/i18n/en-US.ts', '!../features/auth/i18n/*'], {
  eager: true,
})
const merged = (files: Record<string, TextModule>) =>
  Object.assign({}, ...Object.values(files).flatMap((m) => Object.values(m))) as Record<string, unknown>

/** The console pages' texts by language, one chunk loaded with the console layout. */
export const consoleMessages = { 'zh-CN': merged(zh), 'en-US': merged(en) }
