import { Result, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Navigate, useRouteError } from 'react-router'
import { Paths } from '../../../lib/paths'

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]']

function describe(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) return { message: error.message, stack: error.stack }
  if (typeof error === 'object' && error !== null && 'statusText' in error) {
    return { message: String((error as { statusText: unknown }).statusText) }
  }
  return { message: String(error) }
}

/** A view that failed to load: the stack trace on a local host, elsewhere the 500 page. */
export function RouteErrorPage() {
  const { t } = useTranslation()
  const { message, stack } = describe(useRouteError())
  if (!LOCAL_HOSTS.includes(window.location.hostname)) {
    return <Navigate to={`${Paths.serverError}?errorMsg=${encodeURIComponent(message)}`} replace />
  }
  return (
    <Result status="error" title={t('exception.loadFailed')} subTitle={message}>
      {stack && (
        <Typography.Paragraph>
          <pre className="error-stack">{stack}</pre>
        </Typography.Paragraph>
      )}
    </Result>
  )
}
