import type { AgencyNode } from '@aed/contracts/agency'
import type { ServiceConfig } from '@aed/contracts/service-config'
import { Checkbox, Form, Input, Radio, Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { agencyOptions } from '../../../lib/agencyOptions'
import { SecretField } from './SecretField'

export type ServiceConfigValues = {
  agency_id?: number
  service: string[]
  state?: 0 | 1
  regenerate?: boolean
}

type Props = {
  /** The configuration being modified, or undefined when creating one. */
  current?: ServiceConfig
  services: Record<string, string>
  tree: AgencyNode[]
}

/** Organisation, services and state; when modifying also the read-only secret and access token. */
export function ServiceConfigForm({ current, services, tree }: Props) {
  const { t } = useTranslation()
  const nonEmpty = {
    validator: (_: unknown, v?: string[]) =>
      v === undefined
        ? Promise.resolve()
        : v.length
          ? Promise.resolve()
          : Promise.reject(new Error(t('serviceConfig.serviceEmpty'))),
  }
  return (
    <>
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
        </>
      )}
    </>
  )
}
