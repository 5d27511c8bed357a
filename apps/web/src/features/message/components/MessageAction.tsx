import { Button } from 'antd'
import { useTranslation } from 'react-i18next'
import { actionOf } from '../hooks/useHandleMessage'

type Props = {
  msgType: number
  confirmed: boolean
  loading?: boolean
  onClick: () => void
  testId: string
}

/** 'details' (call, rescue, offset, a public submission) or 'confirm' (the others, see actionOf), disabled once the message is confirmed. */
export function MessageAction({ msgType, confirmed, loading, onClick, testId }: Props) {
  const { t } = useTranslation()
  const action = actionOf(msgType)
  return (
    <Button
      size="small"
      type={confirmed ? 'default' : 'primary'}
      disabled={confirmed}
      loading={loading}
      onClick={onClick}
      data-testid={testId}
      data-action={action}
    >
      {confirmed ? t('message.confirmed') : t(`message.${action}`)}
    </Button>
  )
}
