import { Button, Result } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'

type Props = { status: '403' | '404' | '500'; message?: string }

/** One of the error pages, each with a Back Home button to the root. */
export function ExceptionPage({ status, message }: Props) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <div className="exception-page" data-testid={`exception-${status}`}>
      <Result
        status={status}
        title={t(`exception.title${status}`)}
        subTitle={message ?? t(`exception.desc${status}`)}
        extra={
          <Button type="primary" onClick={() => navigate('/')} data-testid="back-home">
            {t('exception.backHome')}
          </Button>
        }
      />
    </div>
  )
}
