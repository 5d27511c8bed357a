import { addTexts } from '.'

let loaded: Promise<void> | null = null

/** Adds the console pages' texts to i18n; the layout route waits for it before the console shows. */
export function loadConsoleTexts(): Promise<void> {
  loaded ??= import('./consoleMessages').then(({ consoleMessages }) => addTexts(consoleMessages))
  return loaded
}
