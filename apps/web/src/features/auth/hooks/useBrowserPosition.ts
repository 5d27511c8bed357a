import { App } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { requestBrowserPosition, sessionPosition } from '../../../lib/browserPosition'

/**
 * The sign-in page asks the browser where it is, once a session, so that maps with nothing else
 * to show open there; when it cannot, a warning says why (the spec's four messages).
 */
export function useBrowserPosition() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once when the page opens, not again on a language switch
  useEffect(() => {
    if (sessionPosition()) return
    let live = true
    void requestBrowserPosition().then((failure) => {
      if (live && failure) void message.warning(t(`browserLocation.${failure}`))
    })
    return () => {
      live = false
    }
  }, [])
}
