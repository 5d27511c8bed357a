import type { AgencyNode } from '@aed/contracts/agency'
import { modelOfSerial } from '@aed/contracts/device'
import { AutoComplete, Form, Input, Radio, Select, TreeSelect } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { agencyTreeOptions } from '../../../lib/agencyOptions'
import { useDict } from '../../../lib/useDict'
import { useDeviceManagers } from '../api/useDeviceManagers'
import { useUnregisteredSerials } from '../api/useUnregisteredSerials'
import type { DeviceFormValues } from './deviceFormValues'

type Props = {
  editing: boolean
  disabled: boolean
  tree: AgencyNode[]
  /** The stored manager, shown even when not among the first page of candidates. */
  manager?: { value: number; label: string } | null
}

/** The change type (editing only), serial and model, organisation, manager and contact. */
export function DeviceIdentityFields({ editing, disabled, tree, manager }: Props) {
  const { t } = useTranslation()
  const dict = useDict()
  const form = Form.useFormInstance<DeviceFormValues>()
  const sn = Form.useWatch('device_sn', form) ?? ''
  const updateType = Form.useWatch('update_type', form)
  const agencyId = Form.useWatch('agency_id', form)
  const [managerName, setManagerName] = useState('')
  const serials = useUnregisteredSerials(sn, !editing && !disabled)
  const managers = useDeviceManagers(agencyId, managerName, !disabled)
  const newSn = Form.useWatch('new_device_sn', form) ?? ''
  const shownSn = updateType === 3 ? newSn : sn
  const model = modelOfSerial(shownSn.trim())
  const candidates = (managers.data?.resource ?? []).map((m) => ({
    value: m.id,
    label: `${m.account.name}（${m.account.phone}）`,
  }))
  const managerOptions =
    manager && agencyId && !candidates.some((c) => c.value === manager.value)
      ? [manager, ...candidates]
      : candidates

  return (
    <>
      {editing && (
        <FieldCol
          span={24}
          name="update_type"
          label={t('device.updateType')}
          required={t('device.required.updateType')}
        >
          <Radio.Group
            disabled={disabled}
            options={dict.options('device_update_type', [1, 2, 3])}
            data-testid="device-update-type"
          />
        </FieldCol>
      )}
      <FieldCol
        span={12}
        name="device_sn"
        label={t('device.sn')}
        required={t('device.required.sn')}
        whitespace
      >
        {editing ? (
          <Input disabled data-testid="device-sn" />
        ) : (
          <AutoComplete
            disabled={disabled}
            options={(serials.data ?? []).map((s) => ({ value: s }))}
            data-testid="device-sn"
          >
            <Input maxLength={32} placeholder={t('device.snPlaceholder')} />
          </AutoComplete>
        )}
      </FieldCol>
      {editing && updateType === 3 && (
        <FieldCol
          span={12}
          name="new_device_sn"
          label={t('device.newSn')}
          required={t('device.required.newSn')}
          whitespace
        >
          <Input
            maxLength={32}
            disabled={disabled}
            placeholder={t('device.required.newSn')}
            data-testid="device-new-sn"
          />
        </FieldCol>
      )}
      <FieldCol span={editing && updateType === 3 ? 24 : 12} label={t('device.model')}>
        <Input value={model || t('table.empty')} disabled data-testid="device-model" />
      </FieldCol>
      <FieldCol span={12} name="agency_id" label={t('device.agency')} required={t('device.required.agency')}>
        <TreeSelect
          treeData={agencyTreeOptions(tree)}
          treeDefaultExpandAll
          showSearch={{ treeNodeFilterProp: 'title' }}
          disabled={disabled}
          placeholder={t('device.required.agency')}
          onChange={() => form.setFieldValue('device_manager_id', null)}
          data-testid="device-agency"
        />
      </FieldCol>
      <FieldCol span={12} name="device_manager_id" label={t('device.manager')}>
        <Select
          allowClear
          disabled={disabled || !agencyId}
          loading={managers.isFetching}
          placeholder={t('device.required.manager')}
          showSearch={{ filterOption: false, onSearch: setManagerName }}
          options={managerOptions}
          data-testid="device-manager"
        />
      </FieldCol>
      <FieldCol span={12} name="contact" label={t('device.contact')}>
        <Input maxLength={50} disabled={disabled} data-testid="device-contact" />
      </FieldCol>
      <FieldCol span={12} name="contact_phone" label={t('device.contactPhone')}>
        <Input maxLength={20} disabled={disabled} data-testid="device-contact-phone" />
      </FieldCol>
    </>
  )
}
