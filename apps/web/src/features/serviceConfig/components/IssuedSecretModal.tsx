import type { ServiceConfig } from '@aed/contracts/service-config'
import { Alert, Form, Modal, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { SecretField } from './SecretField'

/** What a save issued: the webhook secret (shown once), or new credentials after 重新生成. */
export type Issued = {
  config: ServiceConfig
  /** The access token and secret were regenerated: show them and how long the old pair works. */
  credentials: boolean
}

/** The answer of a save worth a dialog of its own: a webhook secret, or regenerated credentials. */
export function issuedBy(config: ServiceConfig, regenerated: boolean): Issued | null {
  const secret = Boolean(config.push_secret && config.push_url)
  return secret || regenerated ? { config, credentials: regenerated } : null
}

/** Until when the previous access token and secret still sign, if that is still ahead. */
export function previousUntil(config: ServiceConfig, now = Date.now()): string | null {
  const until = config.previous_secret_until
  return until && Date.parse(until) > now ? until : null
}

/** Shows a new webhook secret (whsec_…) once, with copy, and the new credentials after a regeneration. */
export function IssuedSecretModal({ issued, onClose }: { issued: Issued | null; onClose: () => void }) {
  const { t } = useTranslation()
  const config = issued?.config
  const secret = config?.push_url ? config.push_secret : undefined
  const until = config && issued?.credentials ? previousUntil(config) : null
  return (
    <Modal
      open={issued !== null}
      title={secret ? t('serviceConfig.issued.title') : t('serviceConfig.issued.credentialsTitle')}
      width={640}
      onOk={onClose}
      onCancel={onClose}
      okText={secret ? t('serviceConfig.issued.close') : t('common.ok')}
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
      data-testid="issued-modal"
    >
      <Form layout="vertical">
        {secret && (
          <>
            <Alert
              type="warning"
              showIcon
              title={t('serviceConfig.issued.once')}
              style={{ marginBottom: 16 }}
            />
            <Form.Item
              label={t('serviceConfig.pushSecret')}
              extra={
                <Typography.Text type="secondary">
                  {t('serviceConfig.issued.pushUrl', { url: config?.push_url })}
                </Typography.Text>
              }
            >
              <SecretField value={secret} testId="issued-push-secret" />
            </Form.Item>
          </>
        )}
        {issued?.credentials && (
          <>
            <Form.Item label={t('serviceConfig.secret')}>
              <SecretField value={config?.secret} testId="issued-secret" />
            </Form.Item>
            <Form.Item label={t('serviceConfig.accessToken')}>
              <SecretField value={config?.access_token} testId="issued-token" />
            </Form.Item>
          </>
        )}
        {until && (
          <Alert
            type="info"
            showIcon
            title={t('serviceConfig.previousValid', { time: formatDateTime(until) })}
            data-testid="issued-previous"
          />
        )}
      </Form>
    </Modal>
  )
}
