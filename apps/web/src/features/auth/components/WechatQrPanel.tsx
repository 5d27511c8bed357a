import { ReloadOutlined, WechatOutlined } from '@ant-design/icons'
import { Alert, Button, Spin, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useWechatConfig } from '../api/useWechatConfig'
import { wechatQrUrl } from '../wechatUrl'

type Props = { purpose: 'login' | 'bind' }

/** The WeChat QR code, or a plain notice when the server has no WeChat provider configured. */
export function WechatQrPanel({ purpose }: Props) {
  const { t } = useTranslation()
  const config = useWechatConfig(purpose)
  const url = wechatQrUrl(config.data)

  if (config.isPending) {
    return (
      <div className="wechat-panel">
        <Spin />
      </div>
    )
  }
  if (config.isError) {
    return (
      <div className="wechat-panel">
        <Alert type="error" showIcon title={t('request.failed')} />
        <Button icon={<ReloadOutlined />} onClick={() => config.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    )
  }
  if (!url) {
    return (
      <div className="wechat-panel">
        <Alert
          type="warning"
          showIcon
          title={purpose === 'login' ? t('wechat.notConfigured') : t('wechat.bindNotConfigured')}
          data-testid="wechat-not-configured"
        />
      </div>
    )
  }
  return (
    <div className="wechat-panel" data-testid="wechat-qr">
      <iframe
        title={t('wechat.frameTitle')}
        src={url}
        className="wechat-frame"
        sandbox="allow-scripts allow-same-origin allow-top-navigation"
      />
      <Typography.Text type="secondary">
        <WechatOutlined className="wechat-icon" />{' '}
        {purpose === 'login' ? t('wechat.scanHint') : t('wechat.scanToBind')}
      </Typography.Text>
      <Typography.Link href={url} target="_top">
        {t('wechat.openPage')}
      </Typography.Link>
    </div>
  )
}
