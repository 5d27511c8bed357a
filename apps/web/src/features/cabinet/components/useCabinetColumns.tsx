import type { Cabinet } from '@aed/contracts/cabinet'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { BatteryLevel } from '../../../components/BatteryLevel/BatteryLevel'
import { RowActions } from '../../../components/RowActions/RowActions'
import { formatDateTime } from '../../../lib/datetime'
import { DoorSwitch } from './DoorSwitch'

type Actions = {
  onBind: (c: Cabinet) => void
  onRecords: (c: Cabinet) => void
  onBinds: (c: Cabinet) => void
  onCommands: (c: Cabinet) => void
}

/** Columns of the cabinet list (spec 2.3); bind or unbind follows the row's `can.bind`. */
export function useCabinetColumns({ onBind, onRecords, onBinds, onCommands }: Actions): ColumnsType<Cabinet> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const text = (v: string | null) => v || dash
  return [
    { title: t('cabinet.sn'), dataIndex: 'cabinet_sn', width: 150, fixed: 'left' },
    { title: t('cabinet.boundAed'), dataIndex: 'device_sn', width: 140, render: text },
    { title: t('cabinet.aedModel'), dataIndex: 'device_model', width: 100, render: text },
    {
      title: t('cabinet.doorStatus'),
      dataIndex: 'door_status',
      width: 100,
      render: (v: number | null, c) => <DoorSwitch value={v} sn={c.cabinet_sn} />,
    },
    {
      title: t('cabinet.battery'),
      dataIndex: 'battery_power',
      width: 130,
      render: (v: number | null) => <BatteryLevel value={v} empty={dash} />,
    },
    { title: t('cabinet.fwVersion'), dataIndex: 'fw_version', width: 100, render: text },
    { title: t('cabinet.agency'), dataIndex: 'agency_name', width: 180, ellipsis: true },
    { title: t('cabinet.location'), dataIndex: 'location', width: 260, ellipsis: true, render: text },
    {
      title: t('cabinet.time'),
      dataIndex: 'data_upload_time',
      width: 170,
      render: (v: string | null) => (v ? formatDateTime(v) : dash),
    },
    {
      title: t('table.actions'),
      key: 'actions',
      width: 280,
      fixed: 'right',
      render: (_, c) => (
        <RowActions
          actions={[
            {
              label: c.bind_device === 1 ? t('cabinet.actions.unbind') : t('cabinet.actions.bind'),
              onClick: () => onBind(c),
              testId: `cabinet-bind-${c.cabinet_sn}`,
              show: c.can.bind,
            },
            {
              label: t('cabinet.actions.records'),
              onClick: () => onRecords(c),
              testId: `cabinet-records-${c.cabinet_sn}`,
            },
            {
              label: t('cabinet.actions.binds'),
              onClick: () => onBinds(c),
              testId: `cabinet-binds-${c.cabinet_sn}`,
            },
            {
              label: t('cabinet.actions.commands'),
              onClick: () => onCommands(c),
              testId: `cabinet-commands-${c.cabinet_sn}`,
            },
          ]}
        />
      ),
    },
  ]
}
