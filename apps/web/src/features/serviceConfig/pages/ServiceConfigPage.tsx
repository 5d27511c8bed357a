import type { ServiceConfig } from '@aed/contracts/service-config'
import { App } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListPage } from '../../../components/ListPage/ListPage'
import { agencyOptions } from '../../../lib/agencyOptions'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useConstants } from '../../system/api/useConstants'
import { useServiceConfigList } from '../api/useServiceConfigList'
import { DeliveryLogDrawer } from '../components/DeliveryLogDrawer'
import { ServiceConfigModal, type ServiceDialog } from '../components/ServiceConfigModal'
import { useServiceConfigColumns } from '../components/useServiceConfigColumns'

/**
 * /systemManagement/serviceConfig: 机构服务配置; add, modify and the webhook actions (resend, test
 * event, enable push) as the list's `can` allows (system super administrators); 推送记录 per row.
 */
export function ServiceConfigPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const list = useListState()
  const rows = useServiceConfigList(list)
  const tree = useAgencyTree()
  const constants = useConstants()
  const services = constants.data?.app_service ?? {}
  const [dialog, setDialog] = useState<ServiceDialog | null>(null)
  const [logOf, setLogOf] = useState<number | null>(null)
  const can = rows.data?.can
  const open = (next: ServiceDialog, allowed = true) =>
    allowed ? setDialog(next) : message.error(t('serviceConfig.forbidden'))
  const columns = useServiceConfigColumns({
    onDetail: (s: ServiceConfig) => open({ mode: 'detail', id: s.id }),
    onModify: (s: ServiceConfig) => open({ mode: 'modify', id: s.id }, can?.update),
    onDeliveries: (s: ServiceConfig) => setLogOf(s.id),
  })
  // The row as the list has it now (its push state changes when push is enabled again).
  const logConfig = rows.data?.resource.find((s) => s.id === logOf) ?? null
  const fields: FilterField[] = [
    {
      name: 'agency_id',
      title: t('serviceConfig.agency'),
      type: 'select_search',
      options: agencyOptions(tree.data ?? []),
    },
    {
      name: 'service',
      title: t('serviceConfig.service'),
      type: 'select',
      options: Object.entries(services).map(([value, label]) => ({ value, label })),
    },
    {
      name: 'start_time',
      title: t('serviceConfig.applyTime'),
      type: 'date_range',
      hasExtraName: 'end_time',
      span: 8,
    },
  ]

  return (
    <ListPage
      testId="service-config-page"
      list={list}
      fields={fields}
      title={t('serviceConfig.list')}
      add={{
        label: t('serviceConfig.add'),
        onClick: () => open({ mode: 'create' }, can?.create),
        testId: 'service-add',
      }}
      dialogs={
        <>
          <ServiceConfigModal
            dialog={dialog}
            services={services}
            tree={tree.data ?? []}
            onClose={() => setDialog(null)}
          />
          <DeliveryLogDrawer
            config={logConfig}
            canUpdate={can?.update ?? false}
            onClose={() => setLogOf(null)}
          />
        </>
      }
    >
      <DataTable<ServiceConfig> list={list} columns={columns} rowKey={(s) => s.id} query={rows} />
    </ListPage>
  )
}
