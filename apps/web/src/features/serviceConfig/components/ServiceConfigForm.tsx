import type { AgencyNode } from '@aed/contracts/agency'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { Alert, Button, Checkbox, Form, Input, Radio, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { agencyOptions } from '../../../lib/agencyOptions'
import { formatDateTime } from '../../../lib/datetime'
import { previousUntil } from './IssuedSecretModal'
import { PushDisabledAlert } from './PushDisabled'
import { pushesEvents, pushUrlProblem } from './pushUrl'
import { SecretField } from './SecretField'

export type ServiceConfigValues = {
  agency_id?: number
  service: string[]
  state?: 0 | 1
  regenerate?: boolean
  push_url?: string
}

/** The push actions of the modify dialog; left out when the member may not modify. */
export type PushActions = {
  onRegenerateSecret: () => void
  onEnable: () => void
  busy: boolean
}

type Props = {
  /** The configuration being modified, or undefined when creating one. */
  current?: ServiceConfig
  services: Record<string, string>
  tree: AgencyNode[]
  push?: PushActions
}

/**
 * Organisation, services, state and the push URL (while a push service is chosen); when modifying
 * also the read-only secret and access token and the webhook's state and secret.
 */
export function ServiceConfigForm({ current, services, tree, push }: Props) {
  const { t, i18n } = useTranslation()
  const form = Form.useFormInstance<ServiceConfigValues>()
  const chosen = Form.useWatch('service', form)
  const lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN'
  const nonEmpty = {
    validator: (_: unknown, v?: string[]) =>
      v === undefined
        ? Promise.resolve()
        : v.length
          ? Promise.resolve()
          : Promise.reject(new Error(t('serviceConfig.serviceEmpty'))),
  }
  const validUrl = {
    validator: (_: unknown, v?: string) => {
      const problem = pushUrlProblem(v ?? '', lang)
      return problem ? Promise.reject(new Error(problem)) : Promise.resolve()
    },
  }
  const until = current ? previousUntil(current) : null
  return (
    <>
      {current?.push_disabled && (
        <PushDisabledAlert disabled={current.push_disabled} onEnable={push?.onEnable} enabling={push?.busy} />
      )}
      {current ? (
        <Form.Item label={t('serviceConfig.agency')}>
          <Input value={current.agency_name} disabled />
        </Form.Item>
      ) : (
        <Form.Item
          name="agency_id"
          label={t('serviceConfig.agency')}
          rules={[{ required: true, message: t('serviceConfig.agencyRequired') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('serviceConfig.agencyRequired')}
            options={agencyOptions(tree)}
            data-testid="service-agency"
          />
        </Form.Item>
      )}
      <Form.Item
        name="service"
        label={t('serviceConfig.service')}
        rules={[{ required: true, message: t('serviceConfig.serviceRequired') }, nonEmpty]}
      >
        <Checkbox.Group
          options={Object.entries(services).map(([value, label]) => ({ value, label }))}
          data-testid="service-services"
        />
      </Form.Item>
      {pushesEvents(chosen) && (
        <Form.Item
          name="push_url"
          label={t('serviceConfig.pushUrl')}
          rules={[validUrl]}
          extra={t('serviceConfig.pushUrlHint')}
        >
          <Input
            placeholder={t('serviceConfig.pushUrlPlaceholder')}
            maxLength={600}
            allowClear
            data-testid="service-push-url"
          />
        </Form.Item>
      )}
      <Form.Item
        name="state"
        label={t('serviceConfig.state')}
        rules={[{ required: true, message: t('serviceConfig.stateRequired') }]}
      >
        <Radio.Group
          options={[1, 0].map((v) => ({ value: v, label: t(`serviceConfig.states.${v}`) }))}
          data-testid="service-state"
        />
      </Form.Item>
      {current && (
        <>
          <Form.Item label={t('serviceConfig.secret')}>
            <SecretField value={current.secret} testId="service-secret" />
          </Form.Item>
          <Form.Item label={t('serviceConfig.accessToken')}>
            <SecretField value={current.access_token} testId="service-token" />
          </Form.Item>
          <Form.Item
            name="regenerate"
            valuePropName="checked"
            wrapperCol={{ offset: 5 }}
            extra={t('serviceConfig.regenerateHint')}
          >
            <Checkbox>{t('serviceConfig.regenerate')}</Checkbox>
          </Form.Item>
          {until && (
            <Form.Item wrapperCol={{ offset: 5, span: 18 }}>
              <Alert
                type="info"
                showIcon
                title={t('serviceConfig.previousValid', { time: formatDateTime(until) })}
                data-testid="service-previous"
              />
            </Form.Item>
          )}
          {current.push_url && push && (
            <Form.Item label={t('serviceConfig.pushSecret')} extra={t('serviceConfig.pushSecretHint')}>
              <Button onClick={push.onRegenerateSecret} loading={push.busy} data-testid="push-regenerate">
                {t('serviceConfig.regeneratePushSecret')}
              </Button>
            </Form.Item>
          )}
        </>
      )}
    </>
  )
}
