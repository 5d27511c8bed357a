import { App } from 'antd'
import { useEffect } from 'react'
import { configureRequest } from '../lib/request'

export const ERROR_TOAST_SECONDS = 3

/** Lets the request client show its errors through antd's themed message API. */
export function RequestBridge() {
  const { message } = App.useApp()
  useEffect(() => {
    configureRequest({
      notify: (text) => {
        message.error({ content: text, duration: ERROR_TOAST_SECONDS, key: text })
      },
    })
  }, [message])
  return null
}
